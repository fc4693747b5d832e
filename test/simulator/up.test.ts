import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

interface StatefulSetJson {
  metadata: { generation: number };
  status?: { observedGeneration?: number; readyReplicas?: number };
}

async function upIn(dir: string, extra: string[] = []) {
  const kubeconfig = join(dir, 'kubeconfig');
  const up = runFlowops([
    'up',
    '--listen',
    '127.0.0.1:0',
    '--data',
    join(dir, 'data'),
    '--kubeconfig',
    kubeconfig,
    ...extra,
  ]);
  await serverUrlOf(up);
  return { up, kubectl: kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-'))) };
}

describe('flowops up simulates workloads', { timeout: 180_000 }, () => {
  it('the seed Database my-postgres reaches a StatefulSet with 3 ready pods and gets Ready', async () => {
    const { up, kubectl } = await upIn(mkdtempSync(join(tmpdir(), 'flowops-up-sim-')));
    try {
      expect(up.stdout()).toContain('Workloads are simulated');
      await waitFor(async () => (await kubectl(['get', 'statefulset', 'my-postgres'])).code === 0, {
        what: 'StatefulSet from the Flow',
        timeoutMs: 60_000,
      });
      // What the README tells a user to run.
      const wait = await kubectl([
        'wait',
        '--for=jsonpath={.status.readyReplicas}=3',
        'statefulset/my-postgres',
        '--timeout=30s',
      ]);
      expect(wait.code, wait.stderr).toBe(0);
      // The Flow's readiness (kstatus over its children) and status projection see the simulated status.
      const ready = await kubectl(['wait', '--for=condition=Ready', 'database/my-postgres', '--timeout=30s']);
      expect(ready.code, ready.stderr).toBe(0);
      expect(
        JSON.parse(await kubectl.ok(['get', 'database', 'my-postgres', '-o', 'jsonpath={.status.readyReplicas}'])),
      ).toBe(3);
      const sts = JSON.parse(await kubectl.ok(['get', 'statefulset', 'my-postgres', '-o', 'json'])) as StatefulSetJson;
      expect(sts.status?.observedGeneration).toBe(sts.metadata.generation);
      expect(sts.status?.readyReplicas).toBe(3);
      const pods = JSON.parse(await kubectl.ok(['get', 'pods', '-l', 'app=my-postgres', '-o', 'json'])) as {
        items: Array<{ metadata: { name: string }; status: { phase: string } }>;
      };
      expect(pods.items.map((p) => `${p.metadata.name}:${p.status.phase}`).sort()).toEqual([
        'my-postgres-0:Running',
        'my-postgres-1:Running',
        'my-postgres-2:Running',
      ]);
      const log = up
        .stderr()
        .split('\n')
        .find((l) => l.includes('"msg":"workload simulator started"'));
      expect(JSON.parse(log!)).toMatchObject({ level: 30, part: 'simulator', podStartMs: 200 });
    } finally {
      up.child.kill('SIGTERM');
    }
    expect(await up.exited).toEqual({ code: 0, signal: null });
  });

  it('--no-simulate starts no simulator: the StatefulSet gets no pods', async () => {
    const { up, kubectl } = await upIn(mkdtempSync(join(tmpdir(), 'flowops-up-nosim-')), ['--no-simulate']);
    try {
      expect(up.stdout()).toContain('Workloads are not simulated');
      expect(up.stderr()).not.toContain('workload simulator started');
      // Once the Flow has applied it, nothing in this process would give it pods.
      await waitFor(async () => (await kubectl(['get', 'statefulset', 'my-postgres'])).code === 0, {
        what: 'StatefulSet from the Flow',
        timeoutMs: 60_000,
      });
      const pods = JSON.parse(await kubectl.ok(['get', 'pods', '-o', 'json'])) as { items: unknown[] };
      expect(pods.items).toEqual([]);
    } finally {
      up.child.kill('SIGTERM');
    }
    expect(await up.exited).toEqual({ code: 0, signal: null });
  });
});
