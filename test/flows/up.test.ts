import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runFlowops, serverUrlOf } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

describe('flowops up (what npm start runs)', () => {
  it('serves the API, installs the Flow CRD and runs Flows until SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const up = runFlowops(['up', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--kubeconfig', kubeconfig]);
    try {
      await serverUrlOf(up);
      expect(up.stdout()).toContain(`export KUBECONFIG=${kubeconfig}`);
      const kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      await waitFor(async () => (await kubectl(['get', 'crd', 'flows.flowops.io'])).code === 0, { what: 'Flow CRD installed' });
      const ex = (f: string) => readFileSync(join(ROOT, 'repos-example', f), 'utf8');
      await kubectl.ok(['apply', '-f', '-'], ex('database-operator/crd.yaml'));
      await kubectl.ok(['apply', '-f', '-'], ex('database-operator/flow.yaml'));
      await kubectl.ok(['apply', '-f', '-'], ex('samples/my-postgres.yaml'));
      await waitFor(async () => (await kubectl(['get', 'statefulset', 'my-postgres'])).code === 0, { what: 'StatefulSet from the Flow', timeoutMs: 30_000 });
      const logLine = up.stderr().split('\n').find((l) => l.includes('"msg":"reconciled"'));
      expect(JSON.parse(logLine!)).toMatchObject({ level: 30, flow: 'default/database-operator', resource: 'Database/default/my-postgres' });
    } finally {
      up.child.kill('SIGTERM');
    }
    expect(await up.exited).toEqual({ code: 0, signal: null });
  });
});
