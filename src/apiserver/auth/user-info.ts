/** Who a request is, as kube-apiserver's authenticators produce it (k8s.io/apiserver/pkg/authentication/user). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const ANONYMOUS = 'system:anonymous';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const MASTERS = 'system:masters';

const SA_PREFIX = 'system:serviceaccount:';

export const anonymousUser = (): UserInfo => ({ username: ANONYMOUS, groups: [ALL_UNAUTHENTICATED] });

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/** The groups kube-apiserver gives every ServiceAccount (serviceaccount.MakeGroupNames). */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** `system:serviceaccount:ns:name` → its namespace and name; anything else is not a ServiceAccount. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const [namespace, name, ...rest] = username.slice(SA_PREFIX.length).split(':');
  return namespace && name && !rest.length ? { namespace, name } : undefined;
}

/** An authenticated user carries system:authenticated once, as kube-apiserver's authenticator chain adds it. */
export function withAuthenticated(user: UserInfo): UserInfo {
  if (user.groups.includes(ALL_AUTHENTICATED) || user.groups.includes(ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}
