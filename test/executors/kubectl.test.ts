// kubectl executor against the embedded API server over HTTP.
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlStepSchema, type KubectlStep } from '../../src/api/flow.js';
import { kubectlExecutor } from '../../src/executors/kubectl.js';
import { FLOW_LABEL, StepError } from '../../src/executors/types.js';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { capturingLogger, failure, makeContext } from './context.js';

let ts: TestServer;
let kube: KubeClient;
let owner: KubeObject;

const step = (s: Record<string, unknown>): KubectlStep => kubectlStepSchema.parse({ name: 'k', type: 'kubectl', ...s });
const run = (s: Record<string, unknown>, resource: KubeObject = owner) =>
  kubectlExecutor.run(step(s), makeContext({ kube, resource }));
const cm = (name: string, namespace = 'team-a') => kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name, namespace });

async function configMap(name: string, namespace: string, data: Record<string, string>): Promise<KubeObject> {
  return kube.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
}

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  for (const ns of ['team-a', 'team-b'])
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await kube.apply(parseYaml(WIDGET_CRD) as KubeObject, { fieldManager: 'test' });
  await waitFor(() => kube.resource('example.com/v1', 'Widget'), { what: 'Widget served' });
  owner = await configMap('db', 'team-a', { replicas: '3', engine: 'postgres' });
});
afterAll(async () => ts?.stop());

describe('kubectl apply', () => {
  it('server-side applies a templated manifest with the flow label and an ownerReference', async () => {
    const { outputs } = await run({
      action: 'apply',
      manifests: `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Resource.metadata.name }}-config
data:
  engine: {{ .Resource.data.engine }}
  replicas: "{{ .Resource.data.replicas }}"
`,
    });
    const child = await cm('db-config');
    expect(child?.data).toEqual({ engine: 'postgres', replicas: '3' });
    expect(child?.metadata.labels?.[FLOW_LABEL]).toBe('test-flow');
    expect(child?.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'db',
        uid: owner.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    const managers = (child?.metadata.managedFields as { manager: string; operation: string }[]).map(
      (m) => `${m.manager}/${m.operation}`,
    );
    expect(managers).toContain('flowops/Apply');
    expect(outputs).toEqual({
      applied: ['ConfigMap/team-a/db-config'],
      name: 'db-config',
      namespace: 'team-a',
      uid: child?.metadata.uid,
      resourceVersion: child?.metadata.resourceVersion,
    });
  });

  it('sets ownerReferences only where Kubernetes allows them', async () => {
    const { outputs } = await run({
      action: 'apply',
      manifests: `apiVersion: v1
kind: ConfigMap
metadata: { name: same-ns }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: other-ns, namespace: team-b }
---
apiVersion: v1
kind: Namespace
metadata: { name: cluster-child }
`,
    });
    expect(outputs.applied).toEqual([
      'ConfigMap/team-a/same-ns',
      'ConfigMap/team-b/other-ns',
      'Namespace/cluster-child',
    ]);
    expect(outputs.name).toBeUndefined();
    expect((await cm('same-ns'))?.metadata.ownerReferences).toHaveLength(1);
    expect((await cm('other-ns', 'team-b'))?.metadata.ownerReferences).toBeUndefined();
    const ns = await kube.get({ apiVersion: 'v1', kind: 'Namespace', name: 'cluster-child' });
    expect(ns?.metadata.ownerReferences).toBeUndefined();
    expect(ns?.metadata.labels?.[FLOW_LABEL]).toBe('test-flow');
  });

  it('logs why an ownerReference was skipped', async () => {
    const cap = capturingLogger();
    await kubectlExecutor.run(
      step({
        action: 'apply',
        manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: logged, namespace: team-b }\n',
      }),
      makeContext({ kube, resource: owner, log: cap.log }),
    );
    expect(cap.text()).toContain('can only own objects in its own namespace');
  });

  it('a cluster-scoped owner owns objects in any namespace; ownerReference: false opts out', async () => {
    const nsOwner = await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'owner-ns' } });
    await run(
      {
        action: 'apply',
        manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: from-cluster-owner, namespace: team-b }\n',
      },
      nsOwner,
    );
    expect((await cm('from-cluster-owner', 'team-b'))?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Namespace',
      name: 'owner-ns',
      uid: nsOwner.metadata.uid,
    });
    await run({
      action: 'apply',
      ownerReference: false,
      manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: unowned }\n',
    });
    expect((await cm('unowned'))?.metadata.ownerReferences).toBeUndefined();
  });

  it('children are garbage-collected with the watched resource', async () => {
    const parent = await configMap('parent', 'team-a', {});
    await run(
      { action: 'apply', manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: orphan-to-be }\n' },
      parent,
    );
    expect(await cm('orphan-to-be')).toBeDefined();
    await kube.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', namespace: 'team-a' });
    await waitFor(async () => (await cm('orphan-to-be')) === undefined, { what: 'child collected' });
  });

  it('re-applying with force takes over fields another manager owns', async () => {
    await kube.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'contested', namespace: 'team-a' },
        data: { k: 'theirs' },
      },
      { fieldManager: 'someone-else' },
    );
    await run({
      action: 'apply',
      manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: contested }\ndata: { k: ours }\n',
    });
    expect((await cm('contested'))?.data).toEqual({ k: 'ours' });
  });

  describe('injection: a resource field can never add fields', () => {
    const corpus = [
      'x\n  privileged: true',
      'x\nkind: Secret',
      'x\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: evil}',
      'a: b',
      '{evil: true}',
      '[1, 2]',
      '- item',
      '&anchor x',
      '*alias',
      '!!binary aGk=',
      '"quoted" extra',
      "' single",
      '{{ .Resource.metadata.uid }}',
      '# comment',
      'key: |\n  block',
      '3',
      'true',
      'null',
    ];
    it.each(corpus.map((v, i) => [i, v] as const))('value %i stays one string', async (i, value) => {
      const resource = { ...owner, data: { note: value } };
      const { outputs } = await run(
        {
          action: 'apply',
          manifests: `apiVersion: v1
kind: ConfigMap
metadata:
  name: inj-${i}
  labels:
    app: demo
data:
  note: {{ .Resource.data.note }}
  quoted: "{{ .Resource.data.note }}"
  prefixed: value-{{ .Resource.data.note }}
`,
        },
        resource,
      );
      expect(outputs.applied).toEqual([`ConfigMap/team-a/inj-${i}`]);
      const got = await cm(`inj-${i}`);
      expect(got?.data).toEqual({ note: value, quoted: value, prefixed: `value-${value}` });
      expect(Object.keys(got?.metadata.labels ?? {}).sort()).toEqual(['app', FLOW_LABEL]);
      expect(await kube.get({ apiVersion: 'v1', kind: 'Secret', name: 'evil', namespace: 'team-a' })).toBeUndefined();
    });
  });

  it('a template error is permanent and names the step field', async () => {
    const err = await failure(() => run({ action: 'apply', manifests: 'a: {{ .Resource.nope }}\n' }));
    expect(err).toBeInstanceOf(StepError);
    expect(err).toMatchObject({ reason: 'TemplateError', permanent: true });
    expect(err.message).toContain('template "k.manifests"');
  });

  it('checks every document before applying any', async () => {
    const err = await failure(() =>
      run({
        action: 'apply',
        manifests:
          'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: first-ok }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {}\n',
      }),
    );
    expect(err).toMatchObject({ reason: 'InvalidManifest', permanent: true });
    expect(err.message).toContain('document 2');
    expect(await cm('first-ok')).toBeUndefined();
  });

  it('carries API status codes (422 Invalid) and the server message', async () => {
    const invalid = await failure(() =>
      run({
        action: 'apply',
        manifests: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\nspec: { size: 1000 }\n',
      }),
    );
    expect(invalid).toMatchObject({ statusCode: 422, reason: 'Invalid', permanent: false });
    expect(invalid.message).toMatch(/spec.size/);
    const badName = await failure(() =>
      run({ action: 'apply', manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Not_A_Name }\n' }),
    );
    expect(badName).toMatchObject({ statusCode: 422, reason: 'Invalid' });
  });

  it('an unknown kind is a retryable UnknownKind error', async () => {
    const err = await failure(() =>
      run({ action: 'apply', manifests: 'apiVersion: example.com/v1\nkind: Gadget\nmetadata: { name: g }\n' }),
    );
    expect(err).toMatchObject({ reason: 'UnknownKind', permanent: false });
  });
});

describe('kubectl delete', () => {
  it('deletes the objects of manifests; missing ones count as done', async () => {
    await configMap('del-a', 'team-a', {});
    const { outputs } = await run({
      action: 'delete',
      manifests:
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: del-a }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: del-missing }\n',
    });
    expect(outputs).toEqual({ deleted: 1 });
    expect(await cm('del-a')).toBeUndefined();
  });

  it('deletes a templated target; not found is success', async () => {
    await configMap('db-target', 'team-a', {});
    const target = { apiVersion: 'v1', kind: 'ConfigMap', name: '{{ .Resource.metadata.name }}-target' };
    expect((await run({ action: 'delete', target })).outputs).toEqual({ deleted: 1 });
    expect((await run({ action: 'delete', target })).outputs).toEqual({ deleted: 0 });
    expect(
      (await run({ action: 'delete', target: { apiVersion: 'example.com/v1', kind: 'Gone', name: 'x' } })).outputs,
    ).toEqual({ deleted: 0 });
  });
});

describe('kubectl patch', () => {
  it('merge-patches with a templated value (default type)', async () => {
    await configMap('patch-me', 'team-a', { a: '1' });
    const { outputs } = await run({
      action: 'patch',
      target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'patch-me' },
      patch: 'data:\n  engine: {{ .Resource.data.engine }}\n',
    });
    const got = await cm('patch-me');
    expect(got?.data).toEqual({ a: '1', engine: 'postgres' });
    expect(outputs).toMatchObject({
      name: 'patch-me',
      namespace: 'team-a',
      resourceVersion: got?.metadata.resourceVersion,
    });
    expect((got?.metadata.managedFields as { manager: string }[]).map((m) => m.manager)).toContain('flowops');
  });

  it('json and strategic patches', async () => {
    await configMap('json-me', 'team-a', { a: '1' });
    await run({
      action: 'patch',
      patchType: 'json',
      target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'json-me' },
      patch: '[{"op": "add", "path": "/data/b", "value": "{{ .Resource.data.replicas }}"}]',
    });
    expect((await cm('json-me'))?.data).toEqual({ a: '1', b: '3' });

    await kube.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'app', image: 'nginx' },
              { name: 'side', image: 'busybox' },
            ],
          },
        },
      },
    });
    await run({
      action: 'patch',
      patchType: 'strategic',
      target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      patch:
        'spec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: {{ .Resource.data.engine }}:16\n',
    });
    const dep = await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'team-a' });
    const containers = (
      dep as unknown as { spec: { template: { spec: { containers: { name: string; image: string }[] } } } }
    ).spec.template.spec.containers;
    expect(containers).toEqual([
      expect.objectContaining({ name: 'app', image: 'postgres:16' }),
      expect.objectContaining({ name: 'side', image: 'busybox' }),
    ]);
  });

  it('a value cannot add patch fields', async () => {
    await configMap('patch-inj', 'team-a', {});
    const resource = { ...owner, data: { v: 'x\n  evil: yes' } };
    await run(
      {
        action: 'patch',
        target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'patch-inj' },
        patch: 'data:\n  v: {{ .Resource.data.v }}\n',
      },
      resource,
    );
    expect((await cm('patch-inj'))?.data).toEqual({ v: 'x\n  evil: yes' });
  });

  it('carries 404 and 409 from the server', async () => {
    const missing = await failure(() =>
      run({ action: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'nope' }, patch: 'data: {a: b}' }),
    );
    expect(missing).toMatchObject({ statusCode: 404, reason: 'NotFound' });
    await configMap('stale', 'team-a', {});
    const conflict = await failure(() =>
      run({
        action: 'patch',
        target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'stale' },
        patch: '{"metadata": {"resourceVersion": "1"}, "data": {"a": "b"}}',
      }),
    );
    expect(conflict).toMatchObject({ statusCode: 409, reason: 'Conflict' });
  });
});

describe('kubectl get', () => {
  it('outputs JSONPath values, or the whole object', async () => {
    const target = { apiVersion: 'v1', kind: 'ConfigMap', name: 'db' };
    const { outputs } = await run({
      action: 'get',
      target,
      outputs: {
        engine: '.data.engine',
        replicas: '{.data.replicas}',
        uid: '.metadata.uid',
        missing: '.data.nope',
        keys: '.data[*]',
      },
    });
    expect(outputs).toEqual({
      engine: 'postgres',
      replicas: '3',
      uid: owner.metadata.uid,
      missing: null,
      keys: ['3', 'postgres'],
    });
    const whole = await run({ action: 'get', target });
    expect(whole.outputs.object).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'db', namespace: 'team-a' },
      data: { engine: 'postgres' },
    });
  });

  it('not found is StepError 404 NotFound; a bad JSONPath is permanent', async () => {
    const err = await failure(() =>
      run({ action: 'get', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'absent' } }),
    );
    expect(err).toBeInstanceOf(StepError);
    expect(err).toMatchObject({ statusCode: 404, reason: 'NotFound' });
    const bad = await failure(() =>
      run({ action: 'get', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'db' }, outputs: { x: '.a[?(oops' } }),
    );
    expect(bad).toMatchObject({ permanent: true });
  });
});

describe('kubectl wait', () => {
  const deployment = (name: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'team-a' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    },
  });
  const setCondition = (name: string, type: string, status: string) =>
    kube.patch(
      { apiVersion: 'apps/v1', kind: 'Deployment', name, namespace: 'team-a' },
      { status: { conditions: [{ type, status }] } },
      'merge',
      { subresource: 'status' },
    );

  it('waits for condition=Available, set after the wait started', async () => {
    await kube.create(deployment('avail'));
    const waiting = run({
      action: 'wait',
      target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'avail' },
      condition: 'condition=Available',
    });
    await setCondition('avail', 'Available', 'False');
    await setCondition('avail', 'Available', 'True');
    const { outputs } = await waiting;
    expect(outputs).toMatchObject({ condition: 'condition=Available=True', name: 'avail' });
  });

  it('a bare condition type means status True; =False waits for False', async () => {
    await kube.create(deployment('ready'));
    await setCondition('ready', 'Ready', 'False');
    const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ready' };
    await expect(run({ action: 'wait', target, condition: 'condition=Ready=False' })).resolves.toBeDefined();
    const waiting = run({ action: 'wait', target, condition: 'Ready' });
    await setCondition('ready', 'Ready', 'True');
    await expect(waiting).resolves.toMatchObject({ outputs: { condition: 'condition=Ready=True' } });
  });

  it('waits for deletion and for a JSONPath value', async () => {
    await configMap('doomed', 'team-a', { phase: 'Pending' });
    const target = { apiVersion: 'v1', kind: 'ConfigMap', name: 'doomed' };
    const phase = run({ action: 'wait', target, condition: 'jsonpath={.data.phase}=Running' });
    await kube.patch({ ...target, namespace: 'team-a' }, { data: { phase: 'Running' } }, 'merge');
    await expect(phase).resolves.toBeDefined();
    const gone = run({ action: 'wait', target, condition: 'delete' });
    await kube.delete({ ...target, namespace: 'team-a' });
    await expect(gone).resolves.toMatchObject({ outputs: { condition: 'deleted' } });
  });

  it('fails with reason Timeout when the signal fires first', async () => {
    await kube.create(deployment('never'));
    const ctx = makeContext({ kube, resource: owner, signal: AbortSignal.timeout(300) });
    const err = await failure(() =>
      kubectlExecutor.run(
        step({
          action: 'wait',
          target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'never' },
          condition: 'Available',
        }),
        ctx,
      ),
    );
    expect(err).toMatchObject({ reason: 'Timeout' });
    expect(err.message).toContain('timed out');
  });

  it('rejects conditions it does not understand', async () => {
    const err = await failure(() =>
      run({ action: 'wait', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'db' }, condition: 'for the stars' }),
    );
    expect(err).toMatchObject({ permanent: true });
  });
});
