import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, helmIn } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';
import { serviceAccountWithRole } from '../fixtures/tenant-rbac.js';

// Lockdown on the real server: the chart with tenancy.defaultServiceAccount gives FlowOps read
// rights and `impersonate` on ServiceAccounts only; every write for a Flow is made as the
// ServiceAccount of the Flow's namespace, and the real RBAC authorizer decides it.

const NS = 'flowops-lock';
const RELEASE = 'flowops-lock';
const controlPlane = realControlPlane();

const flow = (name: string, targetNamespace: string) => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: ${name}, namespace: team-a }
spec:
  watch: { apiVersion: example.com/v1, kind: Database, namespace: team-a, labelSelector: { matchLabels: { flow: ${name} } } }
  reconcile:
    steps:
      - name: config
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-config", namespace: ${targetNamespace} }
          data: { engine: "{{ .Resource.spec.engine }}" }
`;

const TEAM_A_RBAC = serviceAccountWithRole(
  'team-a',
  'flow-runner',
  `  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list, watch, create, update, patch, delete]
  - apiGroups: [example.com]
    resources: [databases, databases/status, databases/finalizers]
    verbs: [get, list, watch, update, patch]`,
);

describeReal("lockdown: a Flow acts as its namespace's ServiceAccount on the real server", () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  beforeAll(async () => {
    cp = controlPlane();
    const r = await helmIn(cp, [
      'install',
      RELEASE,
      join(ROOT, 'charts/flowops'),
      '-n',
      NS,
      '--create-namespace',
      '--set',
      'tenancy.defaultServiceAccount=flow-runner',
    ]);
    expect(r.code, r.stderr).toBe(0);
    await cp.kubectl.ok(['apply', '-f', join(ROOT, 'repos-example/database-operator/crd.yaml')]);
    await cp.kubectl.ok(['wait', '--for=condition=Established', 'crd/databases.example.com', '--timeout=60s']);
    for (const ns of ['team-a', 'team-b']) await cp.kubectl.ok(['create', 'namespace', ns]);
    await cp.kubectl.ok(['apply', '-f', '-'], TEAM_A_RBAC);
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, RELEASE);
    flowops = await startFlowOps({
      kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: NS,
      leaseName: `${RELEASE}-leader`,
      commonArgs: ['--default-service-account', 'flow-runner'],
    });
  });
  afterAll(async () => {
    await flowops?.stop();
  });

  const database = (name: string, flowName: string) =>
    JSON.stringify({
      apiVersion: 'example.com/v1',
      kind: 'Database',
      metadata: { name, namespace: 'team-a', labels: { flow: flowName } },
      spec: { engine: 'postgres', replicas: 1 },
    });
  const ready = async (name: string) =>
    (
      (await getJson(cp, ['get', 'database', name, '-n', 'team-a']))?.status?.conditions as
        | Array<{ type: string; status: string; reason?: string; message?: string }>
        | undefined
    )?.find((c) => c.type === 'Ready');

  it("writes in its own namespace with the ServiceAccount's rights", async () => {
    await cp.kubectl.ok(['apply', '-f', '-'], flow('local', 'team-a'));
    await cp.kubectl.ok(['apply', '-f', '-'], database('db1', 'local'));
    const cm = await waitFor(() => getJson(cp, ['get', 'configmap', 'db1-config', '-n', 'team-a']), {
      what: `the ConfigMap applied as flow-runner\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
    expect(cm.data).toEqual({ engine: 'postgres' });
    await waitFor(async () => (await ready('db1'))?.status === 'True', {
      what: `db1 Ready=True\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
  });

  it("is refused by RBAC where the ServiceAccount may not write: a terminal step failure naming it, not FlowOps' rights", async () => {
    await cp.kubectl.ok(['apply', '-f', '-'], flow('reach', 'team-b'));
    await cp.kubectl.ok(['apply', '-f', '-'], database('db2', 'reach'));
    const cond = await waitFor(
      async () => {
        const c = await ready('db2');
        return c?.status === 'False' && /forbidden/i.test(c.message ?? '') ? c : undefined;
      },
      { what: `db2 Ready=False forbidden\n${flowops!.logs()}`, timeoutMs: 30_000 },
    );
    expect(cond.message).toContain('system:serviceaccount:team-a:flow-runner');
    expect(cond.message).toContain('team-b');
    const stalled = (
      (await getJson(cp, ['get', 'database', 'db2', '-n', 'team-a']))!.status.conditions as Array<{
        type: string;
        status: string;
      }>
    ).find((c) => c.type === 'Stalled');
    expect(stalled?.status).toBe('True');
    expect(await getJson(cp, ['get', 'configmap', 'db2-config', '-n', 'team-b'])).toBeUndefined();
  });
});
