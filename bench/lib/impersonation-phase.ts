// The engine's reconciles/s with and without impersonation, in the same run on the same server:
// an embedded server with authentication and RBAC on (as `flowops up` runs it), FlowOps as the
// admin; one Flow acts with FlowOps' identity, the other as a ServiceAccount (Impersonate-User on
// every call, each one authorized by RBAC for the impersonated user). Rounds alternate, so
// neither side gets all the warm-up.
import pino from 'pino';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startControllers } from '../../src/runtime/controllers.js';
import { startAuthTestServer } from '../../test/helpers/apiserver.js';
import { alternatingRounds, childCounter, itemFlow } from './alternating-rounds.js';

export interface ImpersonationFigures {
  plainPerSec: number;
  impersonatingPerSec: number;
  /** Median over the rounds of impersonating ÷ plain. */
  ratio: number;
}

const rbac = (ns: string): KubeObject[] => [
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'runner', namespace: ns } },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'runner', namespace: ns },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
      {
        apiGroups: ['bench.flowops.io'],
        resources: ['items', 'items/status'],
        verbs: ['get', 'list', 'watch', 'update', 'patch'],
      },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ],
  } as KubeObject,
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'runner', namespace: ns },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'runner' },
    subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace: ns }],
  } as KubeObject,
];

export async function impersonationPhase(
  crd: object,
  perRound: number,
  rounds: number,
  workers: number,
  clients: number,
): Promise<ImpersonationFigures> {
  // Authentication and RBAC on, as `flowops up` runs them (the tests' server of that kind).
  const ts = await startAuthTestServer();
  const kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  const children = childCounter(ts.server);
  const controllers = await startControllers({
    kube,
    log: pino({ level: 'silent' }),
    installCrds: true,
    concurrency: workers,
  });
  try {
    await kube.create(crd as KubeObject);
    for (const ns of ['plain', 'impersonating'])
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const o of rbac('impersonating')) await kube.create(o);
    await kube.create(itemFlow('plain'));
    await kube.create(itemFlow('impersonating', { serviceAccountName: 'runner' }));
    const { perSec, ratio } = await alternatingRounds({
      kube,
      sides: ['plain', 'impersonating'] as const,
      perRound,
      rounds,
      clients,
      children,
    });
    return { plainPerSec: perSec.plain, impersonatingPerSec: perSec.impersonating, ratio };
  } finally {
    await controllers.stop();
    await ts.stop();
  }
}
