import type { ObjectStore } from '../objects/object-store.js';
import { metadataOf } from '../objects/meta.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject } from '../registry/types.js';
import { AuthGate } from './gate.js';
import { ClusterRoleAggregation } from './rbac/aggregation.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { ensureBootstrapPolicy } from './rbac/bootstrap.js';
import { EscalationCheck } from './rbac/escalation.js';
import { PolicyIndex } from './rbac/policy-index.js';
import { ServiceAccountTokens } from './service-account-tokens.js';
import type { UserInfo } from './user-info.js';

export { AuthGate, userOf } from './gate.js';
export type { UserInfo } from './user-info.js';

/** kube-apiserver's --service-account-issuer in a kubeadm-made cluster. */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** The user the admin kubeconfig's token stands for: system:masters, as kubeadm's admin.conf. */
export const ADMIN_USER: UserInfo = { username: 'flowops-admin', groups: ['system:masters'] };

/** Turns on authentication and RBAC (without it every request is allowed, as before). */
export interface AuthOptions {
  /** PKCS#8 PEM RSA key that signs ServiceAccount tokens (kube's --service-account-signing-key-file). */
  serviceAccountKey: string;
  issuer?: string;
  /** Bearer tokens and who they are (kube's --token-auth-file), e.g. the admin kubeconfig's. */
  staticTokens?: ReadonlyArray<{ token: string; user: UserInfo }>;
  /** Requests without credentials are system:anonymous in system:unauthenticated, and RBAC decides (else 401). */
  anonymous?: boolean;
}

/** Probes kube's default policy lets anyone read (system:public-info-viewer), answered without credentials even when anonymous is off. */
const PUBLIC_INFO = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

export async function createAuth(
  opts: AuthOptions,
  registry: ResourceRegistry,
  objects: ObjectStore,
): Promise<AuthGate> {
  ensureBootstrapPolicy(registry, objects);
  const index = new PolicyIndex(registry, objects);
  objects.onWrite(index.onWrite, 'rbac-policy-index');
  const aggregation = new ClusterRoleAggregation(registry, objects);
  objects.onWrite(aggregation.onWrite, 'clusterrole-aggregation');
  aggregation.reconcileAll();
  const saType = registry.lookup('', 'v1', 'serviceaccounts')!;
  const uidOf = (ns: string, name: string) => {
    const stored = objects.getStored(saType, ns, name);
    return stored ? String(metadataOf(JSON.parse(stored.value) as JsonObject).uid) : undefined;
  };
  const tokens = await ServiceAccountTokens.create(opts.serviceAccountKey, opts.issuer ?? DEFAULT_ISSUER, uidOf);
  const authenticators = {
    staticTokens: new Map((opts.staticTokens ?? []).map((t) => [t.token, t.user])),
    serviceAccounts: tokens,
    anonymous: opts.anonymous ?? false,
    anonymousPaths: (path: string) => PUBLIC_INFO.has(path),
  };
  const authorizer = new RbacAuthorizer(index);
  objects.addAdmission(new EscalationCheck(authorizer));
  return new AuthGate(authenticators, authorizer, tokens, registry, objects);
}
