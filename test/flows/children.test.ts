import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeKey } from '../../src/controller/keys.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { CACHE_CRD as CRD, CACHE_FLOW as FLOW, cache } from '../fixtures/cache-operator.js';
import { waitFor } from '../helpers/wait.js';

// A Flow is an operator: what its steps apply are children of the watched object, kept as
// declared (self-healing), pruned when no longer rendered, and judged for readiness.

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps();
  await env.kubectl.ok(['apply', '-f', '-'], CRD);
  await env.kubectl.ok(['apply', '-f', '-'], FLOW);
  await env.kubectl.ok(['apply', '-f', '-'], cache({ replicas: 3, shards: [1, 2], extra: true }));
});
afterAll(async () => env?.stop());

const get = async (kind: string, name: string) => {
  const r = await env.kubectl(['get', kind, name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as any) : undefined;
};
const readyOf = async () =>
  (await get('cache', 'fast'))?.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');

describe('a Flow owns what it applies', () => {
  it('reports Ready=False with ChildrenNotReady naming the StatefulSet while it has no ready replicas', async () => {
    const cond = await waitFor(
      async () => {
        const c = await readyOf();
        return c?.reason === 'ChildrenNotReady' ? c : undefined;
      },
      { what: 'ChildrenNotReady', timeoutMs: 20_000 },
    );
    expect(cond.status).toBe('False');
    expect(cond.message).toContain('StatefulSet fast: 0/3 replicas ready');
  });

  it('stamps provenance on every child and keeps an inventory on the owner', async () => {
    const owner = await get('cache', 'fast');
    for (const [kind, name] of [
      ['statefulset', 'fast'],
      ['configmap', 'fast-shard-1'],
      ['configmap', 'fast-shard-2'],
      ['configmap', 'fast-extra'],
    ] as const) {
      const child = await waitFor(() => get(kind, name), { what: `${kind} ${name}` });
      expect(child.metadata.annotations).toMatchObject({
        'flowops.io/flow': 'default/cache-operator',
        'flowops.io/owner': 'Cache/default/fast',
      });
      expect(child.metadata.labels['flowops.io/flow']).toBe('cache-operator');
    }
    const inventory = JSON.parse(owner.metadata.annotations['flowops.io/inventory']);
    expect(inventory.map((e: { kind: string; name: string }) => `${e.kind}/${e.name}`).sort()).toEqual([
      'ConfigMap/fast-extra',
      'ConfigMap/fast-shard-1',
      'ConfigMap/fast-shard-2',
      'StatefulSet/fast',
    ]);
  });

  it('projects status fields with their types', async () => {
    const s = await waitFor(
      async () =>
        (await get('cache', 'fast'))?.status?.shardCount === 2 ? (await get('cache', 'fast')).status : undefined,
      { what: 'projected status' },
    );
    expect(s.readyReplicas).toBe(0);
    expect(s.endpoint).toBe('fast.default.svc');
    expect(s.observedGeneration).toBe((await get('cache', 'fast')).metadata.generation);
  });

  it('goes Ready=True when the StatefulSet reports 3/3, and kubectl wait returns', async () => {
    const sts = await get('statefulset', 'fast');
    const status = {
      observedGeneration: sts.metadata.generation,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    };
    await env.kubectl.ok([
      'patch',
      'statefulset',
      'fast',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    const r = await env.kubectl(['wait', '--for=condition=Ready', 'cache/fast', '--timeout=20s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    await waitFor(async () => (await get('cache', 'fast'))?.status?.readyReplicas === 3, {
      what: 'readyReplicas projected as 3',
    });
  });

  it('recreates a deleted child', async () => {
    const before = await get('configmap', 'fast-shard-1');
    await env.kubectl.ok(['delete', 'configmap', 'fast-shard-1']);
    const after = await waitFor(
      async () => {
        const cm = await get('configmap', 'fast-shard-1');
        return cm && cm.metadata.uid !== before.metadata.uid ? cm : undefined;
      },
      { what: 'fast-shard-1 recreated' },
    );
    expect(after.data).toEqual({ shard: '1' });
  });

  it('puts back a field the Flow sets, and leaves a field it does not set', async () => {
    await env.kubectl.ok([
      'patch',
      'statefulset',
      'fast',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":7},"metadata":{"annotations":{"team":"cache"}}}',
    ]);
    const sts = await waitFor(
      async () => {
        const s = await get('statefulset', 'fast');
        return s?.spec.replicas === 3 ? s : undefined;
      },
      { what: 'replicas put back to 3' },
    );
    expect(sts.metadata.annotations.team).toBe('cache');
  });

  it('prunes children no longer rendered: a range with one item fewer, a when that turned false', async () => {
    await env.kubectl.ok(['patch', 'cache', 'fast', '--type=merge', '-p', '{"spec":{"shards":[1],"extra":false}}']);
    await waitFor(
      async () =>
        (await get('configmap', 'fast-shard-2')) === undefined && (await get('configmap', 'fast-extra')) === undefined,
      { what: 'stale children deleted' },
    );
    expect(await get('configmap', 'fast-shard-1')).toBeDefined();
    const owner = await waitFor(
      async () => {
        const o = await get('cache', 'fast');
        return JSON.parse(o.metadata.annotations['flowops.io/inventory']).length === 2 ? o : undefined;
      },
      { what: 'inventory of two' },
    );
    expect(owner.status.shardCount).toBe(1);
  });

  it('never deletes an object it did not make, even one with the same name as a stale child', async () => {
    await env.kubectl.ok(['patch', 'cache', 'fast', '--type=merge', '-p', '{"spec":{"shards":[1,2]}}']);
    await waitFor(() => get('configmap', 'fast-shard-2'), { what: 'shard 2 back' });
    // Someone else takes the object over (its annotations no longer name this owner).
    await env.kubectl.ok([
      'annotate',
      'configmap',
      'fast-shard-2',
      'flowops.io/owner=Cache/default/someone-else',
      '--overwrite',
    ]);
    await env.kubectl.ok(['patch', 'cache', 'fast', '--type=merge', '-p', '{"spec":{"shards":[1]}}']);
    await waitFor(
      async () => {
        const o = await get('cache', 'fast');
        return o.status.shardCount === 1 && !o.metadata.annotations['flowops.io/inventory'].includes('fast-shard-2');
      },
      { what: 'inventory without shard 2' },
    );
    expect(await get('configmap', 'fast-shard-2')).toBeDefined();
  });
});

describe('terminal failures stall; resyncInterval re-runs', () => {
  const hits = new Map<string, number>();
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.set(req.url ?? '/', (hits.get(req.url ?? '/') ?? 0) + 1);
      res.writeHead(req.url?.startsWith('/down/') ? 503 : 200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  const stallFlow = () => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: stall-operator, namespace: default }
spec:
  watch: { apiVersion: example.com/v1, kind: Cache, labelSelector: { matchLabels: { mode: stall } } }
  reconcile:
    steps:
      - name: call
        type: http
        url: ${base}/step/{{ .Resource.metadata.name }}
      - name: broken
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-x" }
          data: { v: "{{ fail "this template fails at run time" }}" }
  onError:
    steps:
      - name: notify
        type: http
        url: ${base}/onerror/{{ .Resource.metadata.name }}
`;

  it('runs onError once, sets Stalled=True with one Warning Event, and makes no further attempts', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], stallFlow());
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        metadata: { name: 'stuck', namespace: 'default', labels: { mode: 'stall' } },
        spec: { replicas: 1 },
      }),
    );
    const stalled = await waitFor(
      async () =>
        (await get('cache', 'stuck'))?.status?.conditions?.find(
          (c: { type: string; status: string }) => c.type === 'Stalled' && c.status === 'True',
        ),
      { what: 'Stalled=True' },
    );
    expect(stalled.message).toContain('this template fails at run time');
    expect(hits.get('/onerror/stuck')).toBe(1);
    expect(hits.get('/step/stuck')).toBe(1);
    // Whatever enqueues it meanwhile (a resync, a child event, a label change) finds it stalled.
    const key = encodeKey({
      flowNamespace: 'default',
      flowName: 'stall-operator',
      resource: { apiVersion: 'example.com/v1', kind: 'Cache', namespace: 'default', name: 'stuck' },
    });
    for (let i = 0; i < 3; i++) {
      env.controllers.queue.add(key);
      await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained' });
    }
    await env.kubectl.ok(['label', 'cache', 'stuck', 'touched=yes']);
    await waitFor(() => env.controllers.queue.depth() === 0, { what: 'queue drained after the label' });
    expect(hits.get('/step/stuck')).toBe(1);
    expect(hits.get('/onerror/stuck')).toBe(1);
    const events = JSON.parse(
      await env.kubectl.ok([
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=stuck,type=Warning',
        '-o',
        'json',
      ]),
    );
    expect(events.items.map((e: { reason: string; count?: number }) => [e.reason, e.count ?? 1])).toEqual([
      ['ReconcileStalled', 1],
    ]);
  });

  it('runs again, with onError again, once the object changes generation', async () => {
    await env.kubectl.ok(['patch', 'cache', 'stuck', '--type=merge', '-p', '{"spec":{"replicas":2}}']);
    await waitFor(() => hits.get('/onerror/stuck') === 2, { what: 'second episode' });
    expect(hits.get('/step/stuck')).toBe(2);
  });

  it('retries a retryable failure with per-object backoff, running onError once for the episode', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: flaky-operator, namespace: default }
spec:
  watch: { apiVersion: example.com/v1, kind: Cache, labelSelector: { matchLabels: { mode: down } } }
  reconcile:
    steps:
      - name: call
        type: http
        url: ${base}/down/{{ .Resource.metadata.name }}
        errorHandling: { maxRetries: 0 }
  onError:
    steps:
      - name: notify
        type: http
        url: ${base}/onerror/{{ .Resource.metadata.name }}
`,
    );
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        metadata: { name: 'unlucky', namespace: 'default', labels: { mode: 'down' } },
        spec: { replicas: 1 },
      }),
    );
    await waitFor(() => (hits.get('/down/unlucky') ?? 0) >= 3, { what: 'three runs with backoff', timeoutMs: 20_000 });
    expect(hits.get('/onerror/unlucky')).toBe(1);
    const ready = (await get('cache', 'unlucky')).status.conditions;
    expect(ready.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'HTTPError',
    });
    expect(ready.find((c: { type: string }) => c.type === 'Stalled')).toBeUndefined();
    await env.kubectl.ok(['delete', 'flow', 'flaky-operator']);
  });

  it('re-runs every watched object on resyncInterval with no change', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: resync-operator, namespace: default }
spec:
  watch: { apiVersion: example.com/v1, kind: Cache, labelSelector: { matchLabels: { mode: resync } } }
  resyncInterval: 300ms
  reconcile:
    steps:
      - name: poll
        type: http
        url: ${base}/poll/{{ .Resource.metadata.name }}
`,
    );
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        metadata: { name: 'polled', namespace: 'default', labels: { mode: 'resync' } },
        spec: { replicas: 1 },
      }),
    );
    await waitFor(() => (hits.get('/poll/polled') ?? 0) >= 4, { what: 'four runs from resync', timeoutMs: 20_000 });
  });
});

describe('children no ownerReference covers, readyWhen, and a status template that fails', () => {
  const FAR_FLOW = `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: far-operator, namespace: default }
spec:
  watch: { apiVersion: example.com/v1, kind: Cache, labelSelector: { matchLabels: { mode: far } } }
  reconcile:
    steps:
      - name: elsewhere
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-far", namespace: elsewhere }
          data: { state: "{{ .Resource.spec.state }}" }
        readyWhen: '{{ eq .Child.data.state "done" }}'
      - name: cluster-wide
        type: kubectl
        action: apply
        manifests: |
          apiVersion: rbac.authorization.k8s.io/v1
          kind: ClusterRole
          metadata: { name: "{{ .Resource.metadata.name }}-reader" }
          rules: [ { apiGroups: [""], resources: [configmaps], verbs: [get] } ]
      - name: kept
        type: kubectl
        action: apply
        ownerReference: false
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-kept" }
`;

  it('judges a child by readyWhen', async () => {
    await env.kubectl.ok(['create', 'namespace', 'elsewhere']);
    await env.kubectl.ok(['apply', '-f', '-'], FAR_FLOW);
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        metadata: { name: 'far', namespace: 'default', labels: { mode: 'far' } },
        spec: { state: 'pending' },
      }),
    );
    const cond = await waitFor(
      async () => {
        const c = (await get('cache', 'far'))?.status?.conditions?.find((x: { type: string }) => x.type === 'Ready');
        return c?.reason === 'ChildrenNotReady' ? c : undefined;
      },
      { what: 'ChildrenNotReady from readyWhen' },
    );
    expect(cond.message).toBe('ConfigMap elsewhere/far-far: readyWhen is false');
    await env.kubectl.ok(['patch', 'cache', 'far', '--type=merge', '-p', '{"spec":{"state":"done"}}']);
    await env.kubectl.ok(['wait', '--for=condition=Ready', 'cache/far', '--timeout=20s']);
  });

  it('deletes the cluster-scoped and other-namespace children itself when the owner goes, and leaves ownerReference: false ones', async () => {
    const owner = await get('cache', 'far');
    expect(owner.metadata.finalizers).toContain('flowops.io/finalizer');
    expect(await get('clusterrole', 'far-reader')).toBeDefined();
    const r = await env.kubectl(['delete', 'cache', 'far', '--timeout=30s']);
    expect(r.code).toBe(0);
    expect(await env.kubectl(['get', 'configmap', 'far-far', '-n', 'elsewhere'])).toMatchObject({ code: 1 });
    expect(await get('clusterrole', 'far-reader')).toBeUndefined();
    expect(await get('configmap', 'far-kept')).toBeDefined();
  });

  it('reports a status template that fails at run time as Ready=False, Stalled', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: status-error, namespace: default }
spec:
  watch: { apiVersion: example.com/v1, kind: Cache, labelSelector: { matchLabels: { mode: status-error } } }
  reconcile:
    steps:
      - name: noop
        type: pipeline
        expression: { ok: true }
  status:
    size: '{{ required "spec.size is required" .Resource.spec.size }}'
`,
    );
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        metadata: { name: 'sizeless', namespace: 'default', labels: { mode: 'status-error' } },
        spec: {},
      }),
    );
    const cond = await waitFor(
      async () =>
        (await get('cache', 'sizeless'))?.status?.conditions?.find(
          (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'False',
        ),
      { what: 'Ready=False' },
    );
    expect(cond.reason).toBe('StatusTemplateError');
    expect(cond.message).toContain('spec.size is required');
    expect(
      (await get('cache', 'sizeless')).status.conditions.find((c: { type: string }) => c.type === 'Stalled'),
    ).toMatchObject({ status: 'True' });
  });
});
