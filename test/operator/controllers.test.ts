import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps({ operators: true });
  for (const ns of ['views', 'patch', 'join', 'flow', 'orphans']) await env.kubectl.ok(['create', 'namespace', ns]);
});
afterAll(async () => env?.stop());

const json = async <T>(args: string[]): Promise<T> => JSON.parse(await env.kubectl.ok([...args, '-o', 'json'])) as T;
const exists = async (args: string[]): Promise<boolean> => (await env.kubectl(['get', ...args])).code === 0;

interface Item {
  metadata: { name: string };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

describe('views chained across two controllers', () => {
  it('controller A writes a view that controller B reads, through kubectl-visible objects', async () => {
    const { kubectl } = env;
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: chain}
spec:
  controllers:
    - name: pod-to-view
      sources: [{apiGroup: "", kind: Pod, namespace: views}]
      pipeline:
        "@project":
          metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}
          spec: {image: "$.spec.containers[0].image"}
      target: {kind: PodInfo}
    - name: view-to-configmap
      sources: [{kind: PodInfo}]
      pipeline:
        "@project":
          metadata:
            name: {"@concat": ["$.metadata.name", "-info"]}
            namespace: "$.metadata.namespace"
          data: {image: "$.spec.image"}
      target: {apiGroup: "", kind: ConfigMap}
`,
    );
    await kubectl.ok(['-n', 'views', 'run', 'web', '--image=nginx:1']);
    await waitFor(
      async () =>
        (await kubectl(['-n', 'views', 'get', 'configmap', 'web-info', '-o', 'jsonpath={.data.image}'])).stdout ===
        'nginx:1',
      { what: 'web-info' },
    );
    const view = await json<Item>(['-n', 'views', 'get', 'podinfo.chain.view.dcontroller.io', 'web']);
    expect(view.spec).toEqual({ image: 'nginx:1' });

    await kubectl.ok(['-n', 'views', 'set', 'image', 'pod/web', 'web=nginx:2']);
    await waitFor(
      async () =>
        (await kubectl(['-n', 'views', 'get', 'configmap', 'web-info', '-o', 'jsonpath={.data.image}'])).stdout ===
        'nginx:2',
      { what: 'web-info updated' },
    );

    await kubectl.ok(['-n', 'views', 'delete', 'pod', 'web']);
    await waitFor(async () => !(await exists(['-n', 'views', 'configmap', 'web-info'])), { what: 'web-info deleted' });
    expect(await exists(['-n', 'views', 'podinfo.chain.view.dcontroller.io', 'web'])).toBe(false);

    const op = await json<{ status: { controllers: Array<{ name: string; conditions: Array<{ status: string }> }> } }>([
      'get',
      'operator',
      'chain',
    ]);
    expect(op.status.controllers.map((c) => [c.name, c.conditions[0]!.status])).toEqual([
      ['pod-to-view', 'True'],
      ['view-to-configmap', 'True'],
    ]);
  });
});

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, namespace: patch, labels: {sidecar: managed}}
spec:
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
      - {name: app, image: shop:1}
      - {name: sidecar, image: proxy:1}
`;

const patcherOperator = (mode: string): string => `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: sidecar-env}
spec:
  controllers:
    - name: patch-sidecar
      sources:
        - {apiGroup: apps, kind: Deployment, namespace: patch, labelSelector: {matchLabels: {sidecar: managed}}}
      pipeline:
        "@project":
          metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}
          spec:
            template:
              spec:
                containers:
                  - name: sidecar
                    env: [{name: MODE, value: ${mode}}]
      target: {apiGroup: apps, kind: Deployment, type: Patcher}
`;

describe('a Patcher on a Deployment container list', () => {
  type Deploy = {
    spec: {
      template: {
        spec: { containers: Array<{ name: string; image: string; env?: Array<{ name: string; value: string }> }> };
      };
    };
  };
  const containers = async () =>
    (await json<Deploy>(['-n', 'patch', 'get', 'deployment', 'shop'])).spec.template.spec.containers;

  it('merges by container name, not position; an edit restarts it; leaving the selection releases the fields', async () => {
    const { kubectl } = env;
    await kubectl.ok(['apply', '-f', '-'], DEPLOYMENT);
    await kubectl.ok(['apply', '-f', '-'], patcherOperator('patched'));
    await waitFor(async () => (await containers()).find((c) => c.name === 'sidecar')?.env?.[0]?.value === 'patched', {
      what: 'sidecar env',
    });
    // A positional merge would have patched the first container, "app".
    // (Each container also carries what kube-apiserver defaults in it: imagePullPolicy, resources, …)
    expect(await containers()).toEqual([
      expect.objectContaining({ name: 'app', image: 'shop:1', imagePullPolicy: 'IfNotPresent' }),
      expect.objectContaining({ name: 'sidecar', image: 'proxy:1', env: [{ name: 'MODE', value: 'patched' }] }),
    ]);
    expect((await containers())[0]!.env).toBeUndefined();

    await kubectl.ok(['apply', '-f', '-'], patcherOperator('v2'));
    await waitFor(async () => (await containers()).find((c) => c.name === 'sidecar')?.env?.[0]?.value === 'v2', {
      what: 'edited operator re-patches',
    });

    await kubectl.ok(['-n', 'patch', 'label', 'deployment', 'shop', 'sidecar-']);
    await waitFor(async () => (await containers()).every((c) => !c.env), { what: 'patched env released' });
    expect((await containers()).map((c) => [c.name, c.image])).toEqual([
      ['app', 'shop:1'],
      ['sidecar', 'proxy:1'],
    ]);
  });
});

describe('join of Pods and Services by label', () => {
  it('keeps one view row per matching (service, pod) pair', async () => {
    const { kubectl } = env;
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: svc-pods}
spec:
  controllers:
    - name: join
      sources:
        - {apiGroup: "", kind: Pod, namespace: join}
        - {apiGroup: "", kind: Service, namespace: join}
      pipeline:
        - "@join": {"@eq": ["$.Service.spec.selector.app", "$.Pod.metadata.labels.app"]}
        - "@project":
            metadata:
              name: {"@concat": ["$.Service.metadata.name", "--", "$.Pod.metadata.name"]}
              namespace: "$.Pod.metadata.namespace"
            spec: {service: "$.Service.metadata.name", pod: "$.Pod.metadata.name"}
      target: {kind: ServicePod}
`,
    );
    await kubectl.ok(['-n', 'join', 'run', 'a1', '--image=x', '--labels=app=a']);
    await kubectl.ok(['-n', 'join', 'run', 'a2', '--image=x', '--labels=app=a']);
    await kubectl.ok(['-n', 'join', 'run', 'b1', '--image=x', '--labels=app=b']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Service\nmetadata: {name: svc-a, namespace: join}\nspec: {selector: {app: a}, ports: [{port: 80}]}\n',
    );
    const rows = async (): Promise<string[]> =>
      (await json<{ items: Item[] }>(['-n', 'join', 'get', 'servicepod.svc-pods.view.dcontroller.io'])).items
        .map((i) => i.metadata.name)
        .sort();
    await waitFor(async () => (await rows()).join() === 'svc-a--a1,svc-a--a2', { what: 'joined rows' });

    await kubectl.ok(['-n', 'join', 'label', 'pod', 'b1', 'app=a', '--overwrite']);
    await kubectl.ok(['-n', 'join', 'label', 'pod', 'a1', 'app=b', '--overwrite']);
    await waitFor(async () => (await rows()).join() === 'svc-a--a2,svc-a--b1', { what: 'relabelled rows' });
    await kubectl.ok(['-n', 'join', 'delete', 'service', 'svc-a']);
    await waitFor(async () => (await rows()).length === 0, { what: 'rows gone with the service' });
  });
});

describe('OneShot and Periodic sources', () => {
  it('a OneShot trigger runs the pipeline once; a Periodic resync restores a deleted target', async () => {
    const { kubectl } = env;
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: bootstrap}
spec:
  controllers:
    - name: seed-config
      sources:
        - {kind: Trigger, type: OneShot}
        - {kind: Tick, type: Periodic, parameters: {period: 300ms}}
      pipeline:
        "@project":
          metadata: {name: seeded, namespace: flow}
          data: {trigger: "$.metadata.name"}
      target: {apiGroup: "", kind: ConfigMap}
`,
    );
    const value = async (): Promise<string> =>
      (await kubectl(['-n', 'flow', 'get', 'configmap', 'seeded', '-o', 'jsonpath={.data.trigger}'])).stdout;
    await waitFor(async () => (await value()) === 'one-shot-trigger', { what: 'one-shot output' });
    await kubectl.ok(['-n', 'flow', 'delete', 'configmap', 'seeded']);
    await waitFor(async () => (await value()) === 'one-shot-trigger', { what: 'periodic resync restores it' });
    await kubectl.ok(['delete', 'operator', 'bootstrap']);
  });
});

describe('targets whose sources went while no controller ran', () => {
  it('are removed when the controller starts again; objects it never wrote are left', async () => {
    const { kubectl } = env;
    const operator = `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: orphans}
spec:
  controllers:
    - name: pod-seen
      sources: [{apiGroup: "", kind: Pod, namespace: orphans}]
      pipeline:
        "@project":
          metadata:
            name: {"@concat": ["$.metadata.name", "-seen"]}
            namespace: "$.metadata.namespace"
          data: {image: "$.spec.containers[0].image"}
      target: {apiGroup: "", kind: ConfigMap}
`;
    await kubectl.ok(['apply', '-f', '-'], operator);
    await kubectl.ok(['-n', 'orphans', 'run', 'a', '--image=nginx:1']);
    await kubectl.ok(['-n', 'orphans', 'run', 'b', '--image=nginx:1']);
    await waitFor(
      async () =>
        (await exists(['-n', 'orphans', 'configmap', 'a-seen'])) &&
        (await exists(['-n', 'orphans', 'configmap', 'b-seen'])),
      { what: 'both targets' },
    );

    // The Operator stops (as when FlowOps is down); meanwhile pod b goes and someone makes c-seen by hand.
    await kubectl.ok(['delete', 'operator', 'orphans']);
    await waitFor(() => env.controllers.operators!.controllers('orphans').length === 0, {
      what: 'controllers stopped',
    });
    await kubectl.ok(['-n', 'orphans', 'delete', 'pod', 'b']);
    await kubectl.ok(['-n', 'orphans', 'create', 'configmap', 'c-seen', '--from-literal=by=hand']);

    await kubectl.ok(['apply', '-f', '-'], operator);
    await waitFor(async () => !(await exists(['-n', 'orphans', 'configmap', 'b-seen'])), {
      what: 'the orphaned target removed on start',
    });
    expect(await exists(['-n', 'orphans', 'configmap', 'a-seen'])).toBe(true);
    expect(await exists(['-n', 'orphans', 'configmap', 'c-seen'])).toBe(true);
    await kubectl.ok(['delete', 'operator', 'orphans']);
  });
});

describe('Operator status', () => {
  it('reports a controller that fails to build as NotReady while its sibling runs', async () => {
    const { kubectl } = env;
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: half-broken}
spec:
  controllers:
    - name: broken
      sources: [{apiGroup: "", kind: ConfigMap}]
      pipeline: {"@dummmy": 1}
      target: {kind: Anything}
    - name: fine
      sources: [{apiGroup: "", kind: ConfigMap, namespace: flow}]
      pipeline: {"@project": {metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}}}
      target: {kind: CmName}
`,
    );
    type Status = {
      status?: {
        controllers?: Array<{ name: string; conditions: Array<Record<string, unknown>>; lastErrors?: string[] }>;
      };
    };
    const s = await waitFor(
      async () =>
        (await json<Status>(['get', 'operator', 'half-broken'])).status?.controllers?.length === 2
          ? (await json<Status>(['get', 'operator', 'half-broken'])).status!
          : undefined,
      {
        what: 'status of both controllers',
      },
    );
    expect(s.controllers![0]!.conditions[0]).toMatchObject({
      type: 'Ready',
      status: 'False',
      reason: 'NotReady',
      message: 'Controller failed to start due to a critcal error',
    });
    expect(s.controllers![0]!.lastErrors![0]).toContain('@dummmy');
    expect(s.controllers![1]!.conditions[0]).toMatchObject({ status: 'True', reason: 'Ready' });
  });
});

describe('a Flow with pipeline + target', () => {
  it('runs as a one-controller Operator over spec.watch', async () => {
    const { kubectl } = env;
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: flowops.io/v1
kind: Flow
metadata: {name: copy-settings, namespace: flow}
spec:
  watch: {apiVersion: v1, kind: ConfigMap, namespace: flow, labelSelector: {matchLabels: {copy: "yes"}}}
  pipeline:
    "@project":
      metadata:
        name: {"@concat": ["$.metadata.name", "-copy"]}
        namespace: "$.metadata.namespace"
      data: {a: "$.data.a", from: "$.metadata.name"}
  target: {apiVersion: v1, kind: ConfigMap, type: Updater}
`,
    );
    await kubectl.ok(['-n', 'flow', 'create', 'configmap', 'settings', '--from-literal=a=1', '--from-literal=b=2']);
    await kubectl.ok(['-n', 'flow', 'label', 'configmap', 'settings', 'copy=yes']);
    await waitFor(
      async () =>
        (await kubectl(['-n', 'flow', 'get', 'configmap', 'settings-copy', '-o', 'jsonpath={.data.a}/{.data.from}']))
          .stdout === '1/settings',
      { what: 'copy' },
    );
    const flow = await waitFor(
      async () => {
        const f = await json<{ status?: { conditions?: Array<{ type: string; status: string }> } }>([
          '-n',
          'flow',
          'get',
          'flow',
          'copy-settings',
        ]);
        return f.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True') ? f : undefined;
      },
      { what: 'Flow Ready' },
    );
    expect(flow).toBeTruthy();
    // Leaving the selection deletes the Updater's object.
    await kubectl.ok(['-n', 'flow', 'label', 'configmap', 'settings', 'copy-']);
    await waitFor(async () => !(await exists(['-n', 'flow', 'configmap', 'settings-copy'])), { what: 'copy deleted' });
  });
});
