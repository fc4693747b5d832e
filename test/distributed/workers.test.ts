import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { flowCrd } from '../../src/api/crd.js';
import type { KubeObject } from '../../src/kube/types.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, stopGracefully } from './processes.js';

const cluster = apiServerFixture(async (kube) => {
  await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
  await kube.apply(parse(WIDGET_CRD) as KubeObject, { fieldManager: 'test', force: true });
  await waitFor(
    async () =>
      await kube.list('example.com/v1', 'Widget').then(
        () => true,
        () => false,
      ),
    { what: 'Widget served' },
  );
});

/** Each run appends "start|end <key> <ns> <bash pid> <worker pid>" to the log file. */
function flow(log: string) {
  return {
    apiVersion: 'flowops.io/v1',
    kind: 'Flow',
    metadata: { name: 'slow', namespace: 'default', annotations: { 'flowops.io/revision': 'main@sha1:abc123' } },
    spec: {
      watch: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'default' },
      reconcile: {
        steps: [
          {
            name: 'work',
            type: 'script',
            env: { NAME: '{{ .Resource.metadata.name }}', LOG: log },
            script:
              'echo "start $NAME $(date +%s%N) $$ $PPID" >> "$LOG"\nsleep 1.2\necho "end $NAME $(date +%s%N) $$ $PPID" >> "$LOG"\n',
          },
        ],
      },
    },
  } as unknown as KubeObject;
}

const widget = (name: string, size: number) =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'default' },
    spec: { size },
  }) as unknown as KubeObject;

interface Run {
  key: string;
  start: number;
  end?: number;
  /** The script's bash: leader of its own process group. */
  pid: number;
  worker: number;
}

function runsOf(file: string): Run[] {
  if (!existsSync(file)) return [];
  const runs = new Map<string, Run>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [what, key, ns, pid, worker] = line.split(' ') as [string, string, string, string, string];
    const t = Number(BigInt(ns) / 1_000_000n);
    if (what === 'start') runs.set(pid, { key, start: t, pid: Number(pid), worker: Number(worker) });
    else runs.get(pid)!.end = t;
  }
  return [...runs.values()];
}

describe('flowops worker: two workers, one killed mid-job', () => {
  it('the reconcile still completes and no key ever runs twice at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-workers-'));
    const log = join(dir, 'runs.log');
    const queue = `workers-${randomUUID()}`;
    const common = ['--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0', '--queue', queue];
    const leader = spawnFlowops('run', [
      'run',
      ...common,
      '--lease-namespace',
      'default',
      '--lease-name',
      `w-${randomUUID().slice(0, 8)}`,
      '--lease-duration',
      '3s',
      '--renew-deadline',
      '2s',
      '--retry-period',
      '500ms',
    ]);
    // A short lock so the killed worker's job is recovered quickly.
    // The runs are told apart by the script's and the worker's host pids ($$, $PPID): no PID
    // namespace for the scripts here (script-isolation.test.ts covers those).
    const workerArgs = [
      'worker',
      ...common,
      '--concurrency',
      '2',
      '--lock-duration',
      '2s',
      '--stalled-interval',
      '1s',
      '--script-isolation',
      'none',
    ];
    const w1 = spawnFlowops('worker-1', workerArgs);
    const w2 = spawnFlowops('worker-2', workerArgs);
    for (const p of [leader, w1, w2]) cluster.track(p);
    const metrics = await metricsAddressOf(w1);
    await Promise.all([metricsAddressOf(w2), metricsAddressOf(leader)]);
    await waitFor(async () => (await fetch(`${metrics}/readyz`)).status === 200, {
      what: 'worker ready',
      timeoutMs: 20_000,
    });

    await cluster.kube().create(flow(log));
    const names = ['w0', 'w1', 'w2'];
    for (const n of names) await cluster.kube().create(widget(n, 1));

    // Kill the worker running the first job once its script has started.
    const first = await waitFor(() => runsOf(log)[0], { what: 'a job started', timeoutMs: 30_000 });
    const victim = [w1, w2].find((w) => w.child.pid === first.worker)!;
    expect(victim).toBeDefined();
    const killedAt = Date.now();
    victim.kill9();
    // Its scripts are in their own process groups (the executor detaches them); a container kill takes them too.
    const killScripts = () =>
      runsOf(log)
        .filter((r) => r.worker === first.worker && r.end === undefined)
        .forEach(killGroup);
    killScripts();
    await new Promise((r) => setTimeout(r, 300));
    killScripts();
    const survivor = victim === w1 ? w2 : w1;

    // Changes while keys run: each causes one more run, never a parallel one.
    for (const n of names)
      await cluster
        .kube()
        .patch(
          { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'default', name: n },
          { spec: { size: 2 } },
          'merge',
        );

    await waitFor(
      () => names.every((n) => runsOf(log).some((r) => r.key === n && r.end !== undefined && r.start > killedAt)),
      {
        what: `every key reconciled after the kill (log: ${existsSync(log) ? readFileSync(log, 'utf8') : ''})`,
        timeoutMs: 40_000,
      },
    );
    const runs = runsOf(log);
    // The killed job's key ran to completion on the survivor.
    expect(runs.some((r) => r.key === first.key && r.worker === survivor.child.pid && r.end !== undefined)).toBe(true);
    // No overlap per key: a killed run lasts until the kill.
    for (const n of names) {
      const mine = runs.filter((r) => r.key === n).sort((x, y) => x.start - y.start);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.start).toBeGreaterThanOrEqual(mine[i - 1]!.end ?? killedAt);
    }
    // The reconcile log lines carry flow, resource and revision.
    await waitFor(() => survivor.stderr().includes('"msg":"reconciled"'), { what: 'reconciled log line' });
    const line = JSON.parse(
      survivor
        .stderr()
        .split('\n')
        .find((l) => l.includes('"msg":"reconciled"'))!,
    ) as Record<string, unknown>;
    expect(line).toMatchObject({
      flow: 'default/slow',
      revision: 'main@sha1:abc123',
      resource: expect.stringMatching(/^Widget\/default\/w\d$/),
    });
    const scraped = await (await fetch(`${await metricsAddressOf(survivor)}/metrics`)).text();
    expect(scraped).toMatch(/flowops_reconcile_total\{flow="default\/slow",result="success"\} [1-9]/);
    expect(scraped).toMatch(/flowops_step_duration_seconds_count\{type="script",result="success"\} [1-9]/);
    expect(scraped).toContain('flowops_queue_depth');
    expect(scraped).toContain('process_cpu_user_seconds_total');

    // The leader's Flow status counts what the workers reported on the Widgets.
    await waitFor(
      async () => {
        const f = await cluster
          .kube()
          .get({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: 'slow' });
        const r = (f?.status as { resources?: { watched: number; succeeded: number } } | undefined)?.resources;
        return r?.watched === 3 && r.succeeded === 3;
      },
      { what: 'Flow status: 3 of 3 succeeded' },
    );

    // SIGTERM: finish the job in hand, exit 0.
    for (const p of [survivor, leader]) expect(await stopGracefully(p)).toEqual({ code: 0, signal: null });
  });
});

function killGroup(r: Run): void {
  try {
    process.kill(-r.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
