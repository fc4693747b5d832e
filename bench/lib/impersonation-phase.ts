// The engine's reconciles/s with and without impersonation, in the same run on the same server:
// an embedded server with authentication and RBAC on (as `flowops up` runs it), FlowOps as the
// admin; one Flow acts with FlowOps' identity, the other as a ServiceAccount (Impersonate-User on
// every call, each one authorized by RBAC for the impersonated user). Rounds alternate, so
// neither side gets all the warm-up.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ADMIN_USER } from '../../src/apiserver/auth/index.js';
import { ensureServerPki } from '../../src/apiserver/auth/pki.js';
import { startApiServer } from '../../src/apiserver/index.js';
import { KubeClient } from '../../src/kube/client.js';
import { writeKubeconfig } from '../../src/kube/kubeconfig.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startControllers } from '../../src/runtime/controllers.js';
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
      { apiGroups: ['bench.flowops.io'], resources: ['items', 'items/status'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ],
  } as KubeObject,
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'runner', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'runner' }, subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace: ns }] } as KubeObject,
];

export async function impersonationPhase(crd: object, perRound: number, rounds: number, workers: number, clients: number): Promise<ImpersonationFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-impersonation-'));
  const pki = await ensureServerPki(join(dir, 'pki'), ['127.0.0.1']);
  const server = await startApiServer({
    port: 0,
    dataDir: join(dir, 'data'),
    tls: { key: pki.serverKey, cert: pki.serverCert },
    auth: { serviceAccountKey: pki.serviceAccountKey, staticTokens: [{ token: pki.adminToken, user: ADMIN_USER }] },
  });
  writeKubeconfig(join(dir, 'kubeconfig'), server.url, { caCert: pki.caCert, token: pki.adminToken });
  const kube = KubeClient.fromKubeconfig(join(dir, 'kubeconfig'));
  const children = childCounter(server);
  const controllers = await startControllers({ kube, log: pino({ level: 'silent' }), installCrds: true, concurrency: workers });
  try {
    await kube.create(crd as KubeObject);
    for (const ns of ['plain', 'impersonating']) await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const o of rbac('impersonating')) await kube.create(o);
    await kube.create(itemFlow('plain'));
    await kube.create(itemFlow('impersonating', 'runner'));
    const { perSec, ratio } = await alternatingRounds({ kube, sides: ['plain', 'impersonating'] as const, perRound, rounds, clients, children });
    return { plainPerSec: perSec.plain, impersonatingPerSec: perSec.impersonating, ratio };
  } finally {
    await controllers.stop();
    await server.close();
  }
}
