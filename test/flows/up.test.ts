import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

describe('flowops up (what npm start runs)', () => {
  it('serves the API, installs the Flow CRD and runs Flows until SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const up = runFlowops(['up', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--kubeconfig', kubeconfig]);
    try {
      const url = await serverUrlOf(up);
      expect(up.stdout()).toContain(`export KUBECONFIG=${kubeconfig}`);
      const kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      await waitFor(async () => (await kubectl(['get', 'crd', 'flows.flowops.io'])).code === 0, {
        what: 'Flow CRD installed',
      });
      // `up` seeds its built-in Git repository from repos-example/ and syncs it: the database
      // operator, its CRD and the my-postgres sample arrive through GitOps, with provenance.
      const flow = await waitFor(
        async () => {
          const r = await kubectl(['get', 'flow', 'database-operator', '-o', 'json']);
          return r.code === 0 ? JSON.parse(r.stdout) : undefined;
        },
        { what: 'the Flow synced from the built-in Git repository', timeoutMs: 30_000 },
      );
      expect(flow.metadata.annotations['flowops.io/path']).toBe('database-operator/flow.yaml');
      expect(flow.metadata.annotations['flowops.io/revision']).toMatch(/^main@sha1:[0-9a-f]{40}$/);
      await waitFor(async () => (await kubectl(['get', 'statefulset', 'my-postgres'])).code === 0, {
        what: 'StatefulSet from the Flow',
        timeoutMs: 30_000,
      });
      // The run logs "reconciled" after its last write, a moment after the StatefulSet exists.
      const logLine = await waitFor(
        () =>
          up
            .stderr()
            .split('\n')
            .find((l) => l.includes('"msg":"reconciled"') && l.includes('database-operator')),
        { what: 'the reconciled log line' },
      );
      expect(JSON.parse(logLine)).toMatchObject({
        level: 30,
        flow: 'default/database-operator',
        resource: 'Database/default/my-postgres',
      });
      // Prometheus metrics on the API server's listener, beside /healthz and /readyz, behind its
      // authentication and RBAC as kube-apiserver's are.
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      const token = readFileSync(join(dir, 'data', 'pki', 'admin.token'), 'utf8').trim();
      const metrics = await waitFor(
        async () => {
          const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
          return /^flowops_reconcile_total\{flow="default\/database-operator",result="success"\} [1-9]/m.test(text)
            ? text
            : undefined;
        },
        { what: 'the reconcile counted in /metrics' },
      );
      expect(metrics).toMatch(/^flowops_leader\{identity="up"\} 1$/m);
      expect(metrics).toMatch(
        /^flowops_git_fetch_duration_seconds_count\{source="default\/flows",result="success"\} [1-9]/m,
      );
      expect(metrics).toMatch(/^flowops_step_duration_seconds_count\{type="kubectl",result="success"\} [1-9]/m);
      expect(metrics).toMatch(/^flowops_queue_depth \d+$/m);
    } finally {
      up.child.kill('SIGTERM');
    }
    expect(await up.exited).toEqual({ code: 0, signal: null });
  });
});
