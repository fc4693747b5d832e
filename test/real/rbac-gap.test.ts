import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { refusedRequests } from './audit.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, helmIn, type Json } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// The real tier really runs FlowOps with the chart's RBAC: the chart is installed with
// rbac.flowResourceRules narrowed to the Database kind, so the StatefulSet the Flow applies is
// forbidden by the real RBAC authorizer. FlowOps must say so on the Database (not crash, not
// pretend), and once `helm upgrade` grants StatefulSets the next change of the Database converges.

const NS = 'flowops-narrow';
const RELEASE = 'flowops-narrow';
const DATABASES = {
  apiGroups: ['example.com'],
  resources: ['databases', 'databases/status', 'databases/finalizers'],
  verbs: ['get', 'list', 'watch', 'update', 'patch'],
};
const STATEFULSETS = {
  apiGroups: ['apps'],
  resources: ['statefulsets'],
  verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
};
const controlPlane = realControlPlane();

describeReal('a verb missing from the chart RBAC fails visibly on the real server', () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  const chart = (verb: 'install' | 'upgrade', rules: Json[]) =>
    helmIn(cp, [
      verb,
      RELEASE,
      join(ROOT, 'charts/flowops'),
      '-n',
      NS,
      '--create-namespace',
      '--set-json',
      `rbac.flowResourceRules=${JSON.stringify(rules)}`,
    ]);
  beforeAll(async () => {
    cp = controlPlane();
    const r = await chart('install', [DATABASES]);
    expect(r.code, r.stderr).toBe(0);
    await cp.kubectl.ok(['apply', '-f', join(ROOT, 'repos-example/database-operator/crd.yaml')]);
    await cp.kubectl.ok(['wait', '--for=condition=Established', 'crd/databases.example.com', '--timeout=60s']);
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, RELEASE);
    flowops = await startFlowOps({
      kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: NS,
      leaseName: `${RELEASE}-leader`,
    });
  });
  afterAll(async () => {
    await flowops?.stop();
  });

  const database = () => getJson(cp, ['get', 'database', 'my-postgres', '-n', 'default']);
  const statefulSet = () => getJson(cp, ['get', 'statefulset', 'my-postgres', '-n', 'default']);
  const conditionOf = async (type: string) =>
    (
      (await database())?.status?.conditions as
        | Array<{ type: string; status: string; reason?: string; message?: string }>
        | undefined
    )?.find((c) => c.type === type);

  it('without StatefulSet rights: Ready=False naming the forbidden apply, a Warning Event, no StatefulSet', async () => {
    await cp.kubectl.ok([
      'apply',
      '-f',
      join(ROOT, 'repos-example/database-operator/flow.yaml'),
      '-f',
      join(ROOT, 'repos-example/samples/my-postgres.yaml'),
    ]);
    const ready = await waitFor(
      async () => {
        const c = await conditionOf('Ready');
        return c?.status === 'False' && /forbidden/i.test(c.message ?? '') ? c : undefined;
      },
      { what: `Ready=False with a forbidden message\n${flowops!.logs()}`, timeoutMs: 30_000 },
    );
    expect(ready.message).toMatch(/statefulsets/);
    expect(await statefulSet()).toBeUndefined();
    const events = (await getJson(cp, [
      'get',
      'events',
      '-n',
      'default',
      '--field-selector',
      'involvedObject.kind=Database,involvedObject.name=my-postgres',
    ]))!.items as Json[];
    expect(
      events
        .filter((e) => e.type === 'Warning')
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/forbidden/i);
    // And it was the real RBAC authorizer that said no, to the chart's ServiceAccount.
    const refused = refusedRequests(cp, `system:serviceaccount:${NS}:${RELEASE}`);
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          verb: 'patch',
          code: 403,
          uri: expect.stringContaining('/apis/apps/v1/namespaces/default/statefulsets/my-postgres'),
        }),
      ]),
    );
    // FlowOps' own needs (Flows, Operators, Leases, Events, CRDs) are in its own role, so narrowing
    // the Flow-resources role takes away nothing else.
    expect(refused.filter((r) => !r.uri.includes('/statefulsets'))).toEqual([]);
  });

  it('after helm upgrade grants StatefulSets, the next change of the Database converges', async () => {
    const r = await chart('upgrade', [DATABASES, STATEFULSETS]);
    expect(r.code, r.stderr).toBe(0);
    // A 403 is a terminal failure: not retried until the object's generation changes.
    await cp.kubectl.ok([
      'patch',
      'database',
      'my-postgres',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":2}}',
    ]);
    const sts = await waitFor(statefulSet, {
      what: `StatefulSet my-postgres after the upgrade\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
    expect(sts.spec.replicas).toBe(2);
    await waitFor(async () => (await conditionOf('Ready'))?.reason === 'ChildrenNotReady', {
      what: `Ready=False ChildrenNotReady\n${flowops!.logs()}`,
      timeoutMs: 30_000,
    });
  });
});
