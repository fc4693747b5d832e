import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeKey } from '../../src/controller/keys.js';
import { createMetrics, type FlowOpsMetrics } from '../../src/metrics/registry.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { requestCounts, requestsBetween, writesBetween } from '../helpers/request-counts.js';
import { waitFor } from '../helpers/wait.js';
import { openCrdYaml } from '../fixtures/open-crd.js';

// A reconcile writes only what changed, counted by the API server itself (apiserver_request_total):
// a run that changes nothing sends nothing, a changed outcome is one status write beside the
// child's apply, and a child whose status alone moved is re-judged without running the steps.

const CRD = openCrdYaml({ group: 'quiet.flowops.io', kind: 'Shop', plural: 'shops' });

const FLOW = `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: shop-operator, namespace: default }
spec:
  watch: { apiVersion: quiet.flowops.io/v1, kind: Shop, labelSelector: { matchExpressions: [ { key: mode, operator: DoesNotExist } ] } }
  reconcile:
    steps:
      - name: workload
        type: kubectl
        action: apply
        manifests: |
          apiVersion: apps/v1
          kind: StatefulSet
          metadata: { name: "{{ .Resource.metadata.name }}" }
          spec:
            serviceName: "{{ .Resource.metadata.name }}"
            replicas: {{ .Resource.spec.replicas }}
            selector: { matchLabels: { app: "{{ .Resource.metadata.name }}" } }
            template:
              metadata: { labels: { app: "{{ .Resource.metadata.name }}" } }
              spec: { containers: [ { name: shop, image: "nginx:1" } ] }
  status:
    readyReplicas: "{{ .Children.StatefulSet.shop.status.readyReplicas | default 0 }}"
`;

const server = new Registry();
let metrics: FlowOpsMetrics;
let env: FlowOpsEnv;
const key = encodeKey({
  flowNamespace: 'default',
  flowName: 'shop-operator',
  resource: { apiVersion: 'quiet.flowops.io/v1', kind: 'Shop', namespace: 'default', name: 'shop' },
});

beforeAll(async () => {
  metrics = createMetrics({ defaultMetrics: false });
  env = await startFlowOps({ metrics }, { metrics: server });
  await env.kubectl.ok(['apply', '-f', '-'], CRD);
  await env.kubectl.ok(['apply', '-f', '-'], FLOW);
  await env.kubectl.ok(
    ['apply', '-f', '-'],
    JSON.stringify({
      apiVersion: 'quiet.flowops.io/v1',
      kind: 'Shop',
      metadata: { name: 'shop', namespace: 'default' },
      spec: { replicas: 2 },
    }),
  );
}, 60_000);
afterAll(async () => env?.stop());

const get = async (kind: string, name: string) => {
  const r = await env.kubectl(['get', kind, name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as any) : undefined;
};
const ready = async () =>
  (await get('shop', 'shop'))?.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');
/** Runs of the step so far: the engine's own step metric (flowops_step_duration_seconds). */
const stepRuns = async (): Promise<number> => {
  const v = (await metrics.stepDuration.get()).values.find(
    (x) => x.metricName === 'flowops_step_duration_seconds_count' && x.labels.result === 'success',
  );
  return v?.value ?? 0;
};
const runTotal = async (): Promise<number> => (await get('runhistory', 'shop-shop'))?.status?.total ?? 0;
const runsListed = async (): Promise<number> => (await get('runhistory', 'shop-shop'))?.status?.runs?.length ?? 0;
const stsStatus = (readyReplicas: number, generation: number) => ({
  observedGeneration: generation,
  replicas: 2,
  readyReplicas,
  currentReplicas: 2,
  updatedReplicas: 2,
  availableReplicas: readyReplicas,
});
/** The Flow's status flush reads the Flow first: a GET of it after `since` says the flush ran. */
const flowStatusFlushed = async (since: Map<string, number>): Promise<boolean> =>
  requestsBetween(since, await requestCounts(server), 'GET flows') > 0;

describe('a reconcile writes only what changed', () => {
  it('settles with the StatefulSet not ready and its first run recorded', async () => {
    const cond = await waitFor(
      async () => ((await ready())?.reason === 'ChildrenNotReady' ? await ready() : undefined),
      { what: 'ChildrenNotReady', timeoutMs: 20_000 },
    );
    expect(cond.message).toContain('StatefulSet shop: 0/2 replicas ready');
    await waitFor(async () => (await runTotal()) === 1, { what: 'the first run recorded' });
    await waitFor(async () => (await get('flow', 'shop-operator'))?.status?.resources?.notReady === 1, {
      what: 'the Flow counting it',
    });
  });

  it('re-judges a child whose status alone changed, without running the steps, and readiness flips', async () => {
    const steps0 = await stepRuns();
    const before = await requestCounts(server);
    const sts = await get('statefulset', 'shop');
    await env.kubectl.ok([
      'patch',
      'statefulset',
      'shop',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: stsStatus(2, sts.metadata.generation) }),
    ]);
    await waitFor(async () => (await ready())?.status === 'True', {
      what: 'Ready=True after the StatefulSet became ready',
      timeoutMs: 20_000,
    });
    await waitFor(async () => (await get('shop', 'shop'))?.status?.readyReplicas === 2, {
      what: 'readyReplicas projected as 2',
    });
    await waitFor(async () => (await get('flow', 'shop-operator'))?.status?.resources?.ready === 1, {
      what: 'the Flow counting it ready',
    });
    expect(await stepRuns()).toBe(steps0);
    expect(await runTotal()).toBe(1);
    const writes = writesBetween(before, await requestCounts(server));
    // The test's own status patch; the owner's one status write; the Ready Event; the Flow's counts.
    expect(writes).toEqual({
      'PATCH statefulsets/status': 1,
      'PATCH shops/status': 1,
      'POST events': 1,
      'PATCH flows/status': 1,
    });
  });

  it('makes no API write on a run whose outcome is unchanged (the apply is not sent either)', async () => {
    const steps0 = await stepRuns();
    const before = await requestCounts(server);
    env.controllers.queue.add(key);
    await waitFor(async () => (await stepRuns()) === steps0 + 1, { what: 'the steps ran once more' });
    await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained' });
    await waitFor(async () => flowStatusFlushed(before), { what: 'the Flow status flushed' });
    expect(writesBetween(before, await requestCounts(server))).toEqual({});
    expect(await runTotal()).toBe(1);
  });

  it('puts back a field a step sets when the live child drifted, though the rendered object did not change', async () => {
    await env.kubectl.ok(['patch', 'statefulset', 'shop', '--type=merge', '-p', '{"spec":{"replicas":5}}']);
    await waitFor(async () => (await get('statefulset', 'shop'))?.spec.replicas === 2, {
      what: 'replicas put back to 2',
    });
    // A run that wrote (the apply putting the child back) is recorded, with the unchanged run counted before it.
    await waitFor(async () => (await runTotal()) === 3, { what: 'the self-heal recorded, the unchanged run counted' });
    expect((await get('runhistory', 'shop-shop')).status.runs).toHaveLength(2);
  });

  it('writes one status on a changed outcome, beside the child apply and the run record', async () => {
    // The put-back StatefulSet is a new generation its controller has not observed: not ready, and counted so.
    await waitFor(async () => (await ready())?.reason === 'ChildrenNotReady', {
      what: 'ChildrenNotReady after the put-back',
    });
    await waitFor(async () => (await get('flow', 'shop-operator'))?.status?.resources?.notReady === 1, {
      what: 'the Flow counting it not ready',
    });
    await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained' });
    const runs0 = await runsListed();
    const steps0 = await stepRuns();
    const before = await requestCounts(server);
    await env.kubectl.ok(['patch', 'shop', 'shop', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
    await waitFor(async () => (await get('statefulset', 'shop'))?.spec.replicas === 3, {
      what: 'the StatefulSet scaled to 3',
    });
    await waitFor(async () => (await ready())?.observedGeneration === 2, {
      what: 'Ready judged at the new generation',
    });
    await waitFor(async () => (await runsListed()) === runs0 + 1, { what: 'the run recorded' });
    const writes = writesBetween(before, await requestCounts(server));
    // The test's own spec patch; then the apply, ONE owner status write and the run record. The
    // Flow's counts did not move (one object, not ready before and after): no Flow status write.
    expect(writes).toEqual({
      'PATCH shops': 1,
      'APPLY statefulsets': 1,
      'PATCH shops/status': 1,
      'PUT runhistories': 1,
    });
    // The StatefulSet's watch event for that apply echoes it: the owner does not run again for it.
    await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained' });
    expect(await stepRuns()).toBe(steps0 + 1);
  });
});

describe('the Flow status error is current', () => {
  const FAILING = `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: picky-operator, namespace: default }
spec:
  watch: { apiVersion: quiet.flowops.io/v1, kind: Shop, labelSelector: { matchLabels: { mode: picky } } }
  reconcile:
    steps:
      - name: check
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-checked" }
          data: { ok: "{{ if not .Resource.spec.ok }}{{ fail "spec.ok is not set" }}{{ end }}yes" }
`;
  const flowStatus = async () => (await get('flow', 'picky-operator'))?.status;

  it('shows lastError while an object fails and clears it once the object is fixed', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], FAILING);
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'quiet.flowops.io/v1',
        kind: 'Shop',
        metadata: { name: 'picky', namespace: 'default', labels: { mode: 'picky' } },
        spec: { replicas: 1 },
      }),
    );
    const failing = await waitFor(async () => ((await flowStatus())?.lastError ? await flowStatus() : undefined), {
      what: 'lastError set',
      timeoutMs: 20_000,
    });
    expect(failing.lastError).toContain('spec.ok is not set');
    await env.kubectl.ok(['patch', 'shop', 'picky', '--type=merge', '-p', '{"spec":{"ok":true}}']);
    const fixed = await waitFor(
      async () => {
        const s = await flowStatus();
        return s?.conditions?.find((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True')
          ? s
          : undefined;
      },
      { what: 'the Flow Ready again', timeoutMs: 20_000 },
    );
    expect(fixed.resources.failed).toBe(0);
    expect(fixed.lastError).toBeUndefined();
  });
});

describe('steps whose outputs read a child declare that a child status change runs them', () => {
  const PROBE = `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: probe-operator, namespace: default }
spec:
  watch: { apiVersion: quiet.flowops.io/v1, kind: Shop, labelSelector: { matchLabels: { mode: probe } } }
  reconcile:
    steps:
      - name: workload
        type: kubectl
        action: apply
        manifests: |
          apiVersion: apps/v1
          kind: StatefulSet
          metadata: { name: "{{ .Resource.metadata.name }}" }
          spec:
            serviceName: "{{ .Resource.metadata.name }}"
            replicas: 1
            selector: { matchLabels: { app: "{{ .Resource.metadata.name }}" } }
            template:
              metadata: { labels: { app: "{{ .Resource.metadata.name }}" } }
              spec: { containers: [ { name: probe, image: "nginx:1" } ] }
      - name: probe
        type: kubectl
        action: get
        target: { apiVersion: apps/v1, kind: StatefulSet, name: "{{ .Resource.metadata.name }}" }
        outputs: { ready: .status.readyReplicas }
  status:
    probed: "{{ .Steps.probe.Outputs.ready | default 0 }}"
`;

  it('runs the steps again on a status-only child change when a kubectl get step reads it', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], PROBE);
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'quiet.flowops.io/v1',
        kind: 'Shop',
        metadata: { name: 'probed', namespace: 'default', labels: { mode: 'probe' } },
        spec: {},
      }),
    );
    await waitFor(
      async () => (await get('shop', 'probed'))?.status?.conditions?.find((c: { type: string }) => c.type === 'Ready'),
      { what: 'probed judged', timeoutMs: 20_000 },
    );
    await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained' });
    const steps0 = await stepRuns();
    const sts = await get('statefulset', 'probed');
    const status = {
      observedGeneration: sts.metadata.generation,
      replicas: 1,
      readyReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
    };
    await env.kubectl.ok([
      'patch',
      'statefulset',
      'probed',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    await waitFor(async () => String((await get('shop', 'probed'))?.status?.probed) === '1', {
      what: 'the probe step output projected',
      timeoutMs: 20_000,
    });
    expect(await stepRuns()).toBeGreaterThanOrEqual(steps0 + 2);
  });
});
