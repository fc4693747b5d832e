import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { refusedRequests } from './audit.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, helmIn } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// `helm install` of charts/flowops on a real kube-apiserver, then FlowOps out of cluster with a
// token of the chart's own ServiceAccount (TokenRequest): the chart's RBAC is all it has, so a
// verb the chart forgot fails here. Then the seed's walkthrough, driven by the real kubectl.

const NS = 'flowops-helm';
const RELEASE = 'flowops-e2e';
const controlPlane = realControlPlane();

describeReal('helm install charts/flowops on a real kube-apiserver', () => {
  it('installs the release: CRDs, RBAC, ServiceAccount, Deployments', async () => {
    const cp = controlPlane();
    const r = await helmIn(cp, ['install', RELEASE, join(ROOT, 'charts/flowops'), '-n', NS, '--create-namespace']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse((await helmIn(cp, ['status', RELEASE, '-n', NS, '-o', 'json'])).stdout).info.status).toBe(
      'deployed',
    );
    for (const crd of ['flows.flowops.io', 'flowsources.flowops.io', 'operators.dcontroller.io']) {
      await cp.kubectl.ok(['wait', '--for=condition=Established', `crd/${crd}`, '--timeout=60s']);
    }
    const names = (
      await cp.kubectl.ok(['get', 'deployment,serviceaccount,role,rolebinding', '-n', NS, '-o', 'name'])
    ).split('\n');
    expect(names).toEqual(
      expect.arrayContaining([
        `deployment.apps/${RELEASE}-controller`,
        `deployment.apps/${RELEASE}-worker`,
        `serviceaccount/${RELEASE}`,
        `role.rbac.authorization.k8s.io/${RELEASE}-leader-election`,
      ]),
    );
  });
});

describeReal("the seed walkthrough, FlowOps running as the chart's ServiceAccount", () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  beforeAll(async () => {
    cp = controlPlane();
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, RELEASE);
    // The token really is the ServiceAccount's: nothing of the admin's certificate is in it.
    const asServiceAccount = kubectlFor(kubeconfig, join(cp.dir, 'kubectl-cache-sa'));
    const whoami = JSON.parse(await asServiceAccount.ok(['auth', 'whoami', '-o', 'json'])) as {
      status: { userInfo: { username: string } };
    };
    expect(whoami.status.userInfo.username).toBe(`system:serviceaccount:${NS}:${RELEASE}`);
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

  const example = (path: string) => join(ROOT, 'repos-example', path);
  const database = () => getJson(cp, ['get', 'database', 'my-postgres', '-n', 'default']);
  const statefulSet = () => getJson(cp, ['get', 'statefulset', 'my-postgres', '-n', 'default']);
  const readyOf = async () =>
    (
      (await database())?.status?.conditions as
        | Array<{ type: string; status: string; reason?: string; message?: string }>
        | undefined
    )?.find((c) => c.type === 'Ready');
  const logs = () => flowops!.logs();

  it('Database → StatefulSet of 3 owned by it; not Ready until the StatefulSet reports 3/3', async () => {
    await cp.kubectl.ok(['apply', '-f', example('database-operator/crd.yaml')]);
    await cp.kubectl.ok(['wait', '--for=condition=Established', 'crd/databases.example.com', '--timeout=60s']);
    await cp.kubectl.ok([
      'apply',
      '-f',
      example('database-operator/flow.yaml'),
      '-f',
      example('samples/my-postgres.yaml'),
    ]);

    const sts = await waitFor(statefulSet, { what: `StatefulSet my-postgres\n${logs()}`, timeoutMs: 30_000 });
    expect(sts.spec.replicas).toBe(3);
    const db = (await database())!;
    expect(sts.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        apiVersion: 'example.com/v1',
        kind: 'Database',
        name: 'my-postgres',
        uid: db.metadata.uid,
      }),
    ]);

    const notReady = await waitFor(
      async () => ((await readyOf())?.reason === 'ChildrenNotReady' ? readyOf() : undefined),
      { what: `Ready=False ChildrenNotReady\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(notReady).toMatchObject({ status: 'False', message: 'StatefulSet my-postgres: 0/3 replicas ready' });

    // No controller runs the StatefulSet: its status is set by hand, as envtest users do.
    const status = {
      observedGeneration: sts.metadata.generation,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
    };
    await cp.kubectl.ok([
      'patch',
      'statefulset',
      'my-postgres',
      '-n',
      'default',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    const wait = await cp.kubectl([
      'wait',
      '--for=condition=Ready',
      'database/my-postgres',
      '-n',
      'default',
      '--timeout=60s',
    ]);
    expect(wait.code, `${wait.stderr}\n${logs()}`).toBe(0);
    await waitFor(async () => (await database())?.status?.readyReplicas === 3, {
      what: 'status.readyReplicas projected as the number 3',
    });
    // The runs are recorded beside the Database with the chart's CRD and RBAC, and kubectl shows them.
    const runs = await waitFor(
      async () => {
        const r = await cp.kubectl(['get', 'runs', '-n', 'default']);
        return /database-my-postgres\s+Database\s+my-postgres\s+default\/database-operator\s+Succeeded\s+\S+\s+\S+/.test(
          r.stdout,
        )
          ? r.stdout
          : undefined;
      },
      { what: `kubectl get runs shows the Database's last run\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(runs.split('\n')[0]).toMatch(/^NAME\s+KIND\s+OBJECT\s+FLOW\s+LAST-RUN\s+DURATION\s+RAN$/);
    expect(logs()).not.toContain('could not write the run history');
  });

  it('a deleted StatefulSet comes back; an edited spec.replicas is put back', async () => {
    const before = (await statefulSet())!;
    await cp.kubectl.ok(['delete', 'statefulset', 'my-postgres', '-n', 'default', '--wait=false']);
    await waitFor(
      async () => {
        const now = await statefulSet();
        return now && now.metadata.uid !== before.metadata.uid && !now.metadata.deletionTimestamp;
      },
      { what: `StatefulSet my-postgres recreated\n${logs()}`, timeoutMs: 30_000 },
    );

    await cp.kubectl.ok([
      'patch',
      'statefulset',
      'my-postgres',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":9}}',
    ]);
    await waitFor(async () => (await statefulSet())?.spec.replicas === 3, {
      what: `spec.replicas put back to 3\n${logs()}`,
      timeoutMs: 30_000,
    });
  });

  it("the StatefulSet follows the Database's replicas", async () => {
    await cp.kubectl.ok([
      'patch',
      'database',
      'my-postgres',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":5}}',
    ]);
    await waitFor(async () => (await statefulSet())?.spec.replicas === 5, {
      what: `StatefulSet at 5 replicas\n${logs()}`,
      timeoutMs: 30_000,
    });
  });

  it('editing the Flow re-runs it: the StatefulSet gets the new image (hot reload)', async () => {
    const flow = readFileSync(example('database-operator/flow.yaml'), 'utf8');
    expect(flow).toContain('{{ .Resource.spec.engine }}:latest');
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      flow.replace('{{ .Resource.spec.engine }}:latest', '{{ .Resource.spec.engine }}:16'),
    );
    await waitFor(async () => (await statefulSet())?.spec.template.spec.containers[0].image === 'postgres:16', {
      what: `image postgres:16\n${logs()}`,
      timeoutMs: 30_000,
    });
  });

  it('deleting the Database runs onDelete (and, with the controller-manager, garbage-collects the StatefulSet)', async () => {
    await cp.kubectl.ok(['delete', 'database', 'my-postgres', '-n', 'default', '--wait=false']);
    const backup = await waitFor(() => getJson(cp, ['get', 'configmap', 'my-postgres-final-backup', '-n', 'default']), {
      what: `ConfigMap my-postgres-final-backup\n${logs()}`,
      timeoutMs: 30_000,
    });
    expect(backup.data).toMatchObject({ database: 'my-postgres', engine: 'postgres' });
    await waitFor(async () => !(await database()), {
      what: `the Database gone (finalizer released)\n${logs()}`,
      timeoutMs: 30_000,
    });
    if (cp.controllerManager) {
      await waitFor(async () => !(await statefulSet()), {
        what: 'the StatefulSet garbage-collected by kube-controller-manager',
        timeoutMs: 60_000,
      });
    } else {
      console.warn('kube-controller-manager not running: garbage collection of the StatefulSet not checked');
    }
  });

  it('the real server refused FlowOps nothing (audit log: no 400/401/403/415/422)', () => {
    expect(refusedRequests(cp, `system:serviceaccount:${NS}:${RELEASE}`)).toEqual([]);
  });
});
