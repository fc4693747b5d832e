import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATOR, POD_3 } from '../fixtures/seed-operator.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { refusedRequests } from './audit.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// `kubectl apply -k config/default` exactly as docs/install.md tells a user, against a real
// kube-apiserver: every object is accepted (schemas, RBAC escalation checks, admission), and the
// ServiceAccount ends up with the rights FlowOps needs. No pod runs (no kubelet), as in envtest.
// Then FlowOps as that ServiceAccount with two `run` replicas, as the controller Deployment has:
// the leader is killed and the standby takes the Lease through the install's own Role.

const NS = 'flowops-system';
const SA = `system:serviceaccount:${NS}:flowops`;
const controlPlane = realControlPlane();

describeReal('kubectl apply -k config/default on a real kube-apiserver', () => {
  it('creates the CRDs, RBAC, Deployments and Services, and applying again changes nothing', async () => {
    const { kubectl } = controlPlane();
    await kubectl.ok(['apply', '-k', join(ROOT, 'config/default')]);

    for (const crd of ['flows.flowops.io', 'flowsources.flowops.io', 'operators.dcontroller.io']) {
      await kubectl.ok(['wait', '--for=condition=Established', `crd/${crd}`, '--timeout=60s']);
    }
    expect((await kubectl.ok(['get', 'clusterrole,clusterrolebinding', '-o', 'name'])).split('\n')).toEqual(
      expect.arrayContaining([
        'clusterrole.rbac.authorization.k8s.io/flowops',
        'clusterrole.rbac.authorization.k8s.io/flowops-flow-resources',
        'clusterrolebinding.rbac.authorization.k8s.io/flowops',
        'clusterrolebinding.rbac.authorization.k8s.io/flowops-flow-resources',
      ]),
    );
    const inNamespace = (
      await kubectl.ok(['get', 'deployment,service,serviceaccount,role,rolebinding', '-n', NS, '-o', 'name'])
    ).split('\n');
    expect(inNamespace).toEqual(
      expect.arrayContaining([
        'deployment.apps/flowops-controller',
        'deployment.apps/flowops-worker',
        'service/flowops-metrics',
        'serviceaccount/flowops',
        'role.rbac.authorization.k8s.io/flowops-leader-election',
        'rolebinding.rbac.authorization.k8s.io/flowops-leader-election',
      ]),
    );
    // The Flow CRD is served: the printer columns and short name work through discovery.
    expect(await kubectl.ok(['get', 'flows', '-A'])).toBe('');

    // The real server's defaulting does not fight the manifests: a second apply is a no-op.
    const diff = await kubectl(['diff', '-k', join(ROOT, 'config/default')]);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
  });

  it('gives the ServiceAccount what FlowOps uses, and not what it must not have', async () => {
    const { kubectl } = controlPlane();
    const can = async (...args: string[]) => (await kubectl(['auth', 'can-i', `--as=${SA}`, ...args])).stdout.trim();
    expect(await can('watch', 'flows.flowops.io', '-A')).toBe('yes');
    expect(await can('patch', 'flows.flowops.io/status', '-A')).toBe('yes');
    expect(await can('update', 'leases.coordination.k8s.io', '-n', NS)).toBe('yes');
    expect(await can('create', 'events.events.k8s.io', '-n', 'default')).toBe('yes');
    expect(await can('list', 'customresourcedefinitions.apiextensions.k8s.io')).toBe('yes');
    expect(await can('create', 'statefulsets.apps', '-n', 'default')).toBe('yes');
    // escalate, bind and impersonate are left out on purpose (config/rbac/role.yaml).
    expect(await can('impersonate', 'users')).toBe('no');
    expect(await can('escalate', 'clusterroles.rbac.authorization.k8s.io')).toBe('no');
  });
});

describeReal("FlowOps as config/default's ServiceAccount: the leader killed", () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  beforeAll(async () => {
    cp = controlPlane();
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, 'flowops');
    const runArgs = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
    flowops = await startFlowOps({
      kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: NS,
      leaseName: 'flowops-leader',
      runs: 2,
      runArgs,
    });
  });
  afterAll(async () => {
    await flowops?.stop();
  });

  const statefulSet = () => getJson(cp, ['get', 'statefulset', 'my-postgres', '-n', 'default']);

  it('the Flow is Ready by kstatus, and its Database gets its StatefulSet', async () => {
    await cp.kubectl.ok(['apply', '-f', join(ROOT, 'repos-example/database-operator/crd.yaml')]);
    await cp.kubectl.ok(['wait', '--for=condition=Established', 'crd/databases.example.com', '--timeout=60s']);
    await cp.kubectl.ok([
      'apply',
      '-f',
      join(ROOT, 'repos-example/database-operator/flow.yaml'),
      '-f',
      join(ROOT, 'repos-example/samples/my-postgres.yaml'),
    ]);
    const wait = await cp.kubectl([
      'wait',
      '--for=condition=Ready',
      'flow/database-operator',
      '-n',
      'default',
      '--timeout=30s',
    ]);
    expect(wait.code, `${wait.stderr}\n${flowops!.logs()}`).toBe(0);
    const sts = await waitFor(statefulSet, { what: `StatefulSet my-postgres\n${flowops!.logs()}`, timeoutMs: 30_000 });
    expect(sts.spec.replicas).toBe(3);
    // The leader holds the install's Lease under its identity.
    const lease = (await getJson(cp, ['get', 'lease', 'flowops-leader', '-n', NS]))!;
    expect(flowops!.leader.stderr()).toContain(`"identity":"${lease.spec.holderIdentity}"`);
  });

  it('after kill -9 of the leader the standby leads: a Database change and a deleted child are handled', async () => {
    const { leader, runs } = flowops!;
    const standby = runs.find((p) => p !== leader)!;
    leader.kill9();
    await waitFor(() => standby.stderr().includes('"msg":"became leader"'), {
      what: `the standby leading\n${flowops!.logs()}`,
      timeoutMs: 20_000,
    });

    await cp.kubectl.ok([
      'patch',
      'database',
      'my-postgres',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":4}}',
    ]);
    await waitFor(async () => (await statefulSet())?.spec.replicas === 4, {
      what: `StatefulSet at 4 replicas after the failover\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
    const before = (await statefulSet())!;
    await cp.kubectl.ok(['delete', 'statefulset', 'my-postgres', '-n', 'default', '--wait=false']);
    await waitFor(
      async () => {
        const now = await statefulSet();
        return now && now.metadata.uid !== before.metadata.uid && !now.metadata.deletionTimestamp;
      },
      { what: `StatefulSet recreated by the new leader's child informer\n${flowops!.logs()}`, timeoutMs: 30_000 },
    );
  });

  it("a Δ-controller Operator (the seed's pod-container-num-annotator) runs on the new leader and patches a Pod", async () => {
    await cp.kubectl.ok(['apply', '-f', '-'], OPERATOR);
    // The Pod stays Pending (no scheduler, no kubelet); its object is all the Operator reads.
    await cp.kubectl.ok(['apply', '-n', 'default', '-f', '-'], POD_3);
    const pod = await waitFor(
      async () => {
        const p = await getJson(cp, ['get', 'pod', 'net-debug-2', '-n', 'default']);
        return p?.metadata.annotations?.['dcontroller.io/container-num'] ? p : undefined;
      },
      { what: `the Operator's annotation on the Pod\n${flowops!.logs()}`, timeoutMs: 30_000 },
    );
    expect(pod.metadata.annotations['dcontroller.io/container-num']).toBe('3');
  });

  it("a Δ-controller Operator with a join of Pods and Services, and a Patcher of a Deployment's container by name", async () => {
    await cp.kubectl.ok(['apply', '-f', '-'], JOIN_AND_PATCH_OPERATOR);
    for (const [pod, app] of [
      ['j-a1', 'j-a'],
      ['j-a2', 'j-a'],
      ['j-b1', 'j-b'],
    ])
      await cp.kubectl.ok(['run', pod!, '-n', 'default', '--image=x', `--labels=app=${app}`]);
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Service\nmetadata: {name: svc-a, namespace: default}\nspec: {selector: {app: j-a}, ports: [{port: 80}]}\n',
    );
    const rows = async () =>
      (
        await cp.kubectl.ok([
          'get',
          'configmap',
          '-n',
          'default',
          '-l',
          'join=svc-pods',
          '-o',
          'jsonpath={.items[*].metadata.name}',
        ])
      )
        .split(' ')
        .filter(Boolean)
        .sort()
        .join();
    await waitFor(async () => (await rows()) === 'svc-a--j-a1,svc-a--j-a2', {
      what: `one ConfigMap per joined (Service, Pod) pair\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
    await cp.kubectl.ok(['label', 'pod', 'j-b1', '-n', 'default', 'app=j-a', '--overwrite']);
    await waitFor(async () => (await rows()) === 'svc-a--j-a1,svc-a--j-a2,svc-a--j-b1', {
      what: `a relabelled Pod joins\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });

    await cp.kubectl.ok(['apply', '-f', '-'], SHOP_DEPLOYMENT);
    type Container = { name: string; image: string; env?: Array<{ name: string; value: string }> };
    const containers = async () =>
      ((await getJson(cp, ['get', 'deployment', 'shop', '-n', 'default']))?.spec.template.spec.containers ??
        []) as Container[];
    await waitFor(async () => (await containers()).find((c) => c.name === 'sidecar')?.env?.[0]?.value === 'patched', {
      what: `the Patcher's env on the sidecar container\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
    // Merged by container name on the real server's strategic merge, not by position.
    expect((await containers()).map((c) => [c.name, c.image, c.env?.length ?? 0])).toEqual([
      ['app', 'shop:1', 0],
      ['sidecar', 'proxy:1', 1],
    ]);
  });

  it('the real server refused FlowOps nothing (audit log: no 400/401/403/415/422)', () => {
    expect(refusedRequests(cp, SA)).toEqual([]);
  });
});

const JOIN_AND_PATCH_OPERATOR = `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: svc-pods}
spec:
  controllers:
    - name: join
      sources:
        - {apiGroup: "", kind: Pod, namespace: default}
        - {apiGroup: "", kind: Service, namespace: default}
      pipeline:
        - "@join": {"@eq": ["$.Service.spec.selector.app", "$.Pod.metadata.labels.app"]}
        - "@project":
            metadata:
              name: {"@concat": ["$.Service.metadata.name", "--", "$.Pod.metadata.name"]}
              namespace: "$.Pod.metadata.namespace"
              labels: {join: svc-pods}
            data: {service: "$.Service.metadata.name", pod: "$.Pod.metadata.name"}
      target: {apiGroup: "", kind: ConfigMap}
    - name: patch-sidecar
      sources:
        - {apiGroup: apps, kind: Deployment, namespace: default, labelSelector: {matchLabels: {sidecar: managed}}}
      pipeline:
        "@project":
          metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}
          spec:
            template:
              spec:
                containers:
                  - name: sidecar
                    env: [{name: MODE, value: patched}]
      target: {apiGroup: apps, kind: Deployment, type: Patcher}
`;

const SHOP_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, namespace: default, labels: {sidecar: managed}}
spec:
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
      - {name: app, image: shop:1}
      - {name: sidecar, image: proxy:1}
`;
