import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_REQUEST_ANNOTATION } from '../../src/api/reconcile-request.js';
import type { KubeObject } from '../../src/kube/types.js';
import { createMetrics, type FlowOpsMetrics } from '../../src/metrics/registry.js';
import { flowSource, flowYaml } from '../gitops/fixtures.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { requestCounts, requestsBetween } from '../helpers/request-counts.js';
import { waitFor } from '../helpers/wait.js';
import { openCrdYaml } from '../fixtures/open-crd.js';

// The reconcile kit's closed result set, end to end through the in-process queue and the embedded
// API server (its own apiserver_request_total counts the writes): a terminal failure is a stalled
// result the queue does not retry, a failure a retry may fix is an error retried with backoff, and
// each reconcile, whatever its result, makes one status write.

const CRD = openCrdYaml({ group: 'kit.flowops.io', kind: 'Gadget', plural: 'gadgets' });

/** A Flow over the Gadgets labelled `role`, whose one step applies `manifest`. */
const flow = (name: string, role: string, manifest: string): string => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: ${name}, namespace: default }
spec:
  watch: { apiVersion: kit.flowops.io/v1, kind: Gadget, labelSelector: { matchLabels: { role: ${role} } } }
  reconcile:
    steps:
      - name: apply
        type: kubectl
        action: apply
        manifests: |
${manifest
  .split('\n')
  .map((l) => `          ${l}`)
  .join('\n')}
`;

// A name the server refuses (422 Invalid): no retry of this spec can fix it (terminal, a stalled result).
const STUCK = flow('stuck-flow', 'stuck', 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Not_A_Name }');
// A kind nothing serves yet: a later run may find it (an error result, retried with backoff).
const LATER = 'apiVersion: later.kit.flowops.io/v1\nkind: Later\nmetadata: { name: later }';
const FLAKY = flow('flaky-flow', 'flaky', LATER);

const gadget = (name: string, role: string): KubeObject => ({
  apiVersion: 'kit.flowops.io/v1',
  kind: 'Gadget',
  metadata: { name, namespace: 'default', labels: { role } },
  spec: {},
});

const server = new Registry();
let metrics: FlowOpsMetrics;
let env: FlowOpsEnv;
let git: GitServer;

beforeAll(async () => {
  metrics = createMetrics({ defaultMetrics: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'flowops-kit-sources-'));
  env = await startFlowOps({ metrics, backoff: { baseMs: 20, maxMs: 80 }, sources: { dataDir } }, { metrics: server });
  git = await startGitServer();
  await env.kubectl.ok(['apply', '-f', '-'], CRD);
}, 60_000);
afterAll(async () => {
  await env?.stop();
  await git?.stop();
});

/** Reconciles of one Flow so far by result, `*` for every result (flowops_reconcile_total). */
const reconciles = async (name: string, result = '*'): Promise<number> => {
  const values = (await metrics.reconcileTotal.get()).values
    .filter((v) => String(v.labels.flow).endsWith(`/${name}`))
    .filter((v) => result === '*' || v.labels.result === result);
  return values.reduce((n, v) => n + v.value, 0);
};
const failures = (name: string): Promise<number> => reconciles(name, 'failure');

interface Conditions {
  conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
}
const condition = async (name: string, type: string) => {
  const g = await env.kube.get({ apiVersion: 'kit.flowops.io/v1', kind: 'Gadget', namespace: 'default', name });
  return ((g?.status as Conditions | undefined)?.conditions ?? []).find((c) => c.type === type);
};

describe('the result set, through the queue', () => {
  it('stalls a terminal failure in one status write, not retried while an error backs off', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], STUCK);
    const before = await requestCounts(server);
    await env.kube.create(gadget('stuck', 'stuck'));
    const stuckStalled = async () => (await condition('stuck', 'Stalled'))?.status === 'True';
    await waitFor(stuckStalled, { what: 'Stalled=True on the stuck Gadget' });
    await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained' });
    expect((await condition('stuck', 'Ready'))?.reason).toBe('Invalid');
    // One reconcile ran the steps and failed; its one report is one status write.
    expect(await failures('stuck-flow')).toBe(1);
    expect(requestsBetween(before, await requestCounts(server), 'PATCH gadgets/status')).toBe(1);

    const stuckRuns = await reconciles('stuck-flow');
    await env.kubectl.ok(['apply', '-f', '-'], FLAKY);
    await env.kube.create(gadget('flaky', 'flaky'));
    // The error result comes back again and again with backoff (20, 40, 80, 80 ms)...
    const retried = async () => (await failures('flaky-flow')) >= 5;
    await waitFor(retried, { what: 'the error result retried', timeoutMs: 20_000 });
    expect((await condition('flaky', 'Stalled'))?.status).not.toBe('True');
    expect((await condition('flaky', 'Ready'))?.status).toBe('False');
    // ...while the stalled key was not run once more in that time.
    expect(await reconciles('stuck-flow')).toBe(stuckRuns);
  });

  it('runs a stalled key again when it changes, and a fixed Flow makes it Ready', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], STUCK.replace('Not_A_Name', 'a-name'));
    const fixed = async () => (await condition('stuck', 'Ready'))?.status === 'True';
    await waitFor(fixed, { what: 'Ready=True once the Flow is fixed' });
    expect(await condition('stuck', 'Stalled')).toBeUndefined();
  });
});

describe('a FlowSource reconcile writes its status once', () => {
  const src = (name: string) => ({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name });
  interface SourceStatus extends Conditions {
    lastAppliedRevision?: string;
    lastHandledReconcileAt?: string;
  }
  const statusOf = async (name: string) => (await env.kube.get(src(name)))?.status as SourceStatus | undefined;

  it('applies a requested commit and answers the request in the same status write', async () => {
    const repo = git.repo('kit');
    const first = await repo.commit({ 'a.yaml': flowYaml('kit-a') });
    await env.kube.create(flowSource('kit', repo.url));
    const applied = async () => (await statusOf('kit'))?.lastAppliedRevision?.endsWith(first);
    await waitFor(applied, { what: 'the first commit applied' });

    const second = await repo.commit({ 'b.yaml': flowYaml('kit-b') });
    const before = await requestCounts(server);
    const asked = new Date().toISOString();
    await env.kube.patch(src('kit'), { metadata: { annotations: { [RECONCILE_REQUEST_ANNOTATION]: asked } } }, 'merge');
    const status = await waitFor(
      async () => {
        const s = await statusOf('kit');
        return s?.lastHandledReconcileAt === asked ? s : undefined;
      },
      { what: 'the request answered' },
    );
    expect(status.lastAppliedRevision?.endsWith(second)).toBe(true);
    expect(requestsBetween(before, await requestCounts(server), 'PATCH flowsources/status')).toBe(1);
  });

  it('stalls an invalid spec with one status write', async () => {
    const before = await requestCounts(server);
    const spec = { url: 'https://example.invalid/x.git', interval: 'soon' };
    const metadata = { name: 'kit-bad', namespace: 'default' };
    await env.kube.create({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', metadata, spec });
    const stalled = await waitFor(
      async () => {
        const s = await statusOf('kit-bad');
        return s?.conditions?.find((c) => c.type === 'Stalled' && c.status === 'True');
      },
      { what: 'Stalled=True on the invalid source' },
    );
    expect(stalled.message).toContain('spec.interval');
    expect(requestsBetween(before, await requestCounts(server), 'PATCH flowsources/status')).toBe(1);
  });
});
