import type { AuthCallback, AuthFailureCallback } from 'isomorphic-git';

/** HTTP credentials read from the Secret named by spec.secretRef. */
export type GitCredentials = { username: string; password: string } | { bearerToken: string };

/** What a Secret's `data` may hold: username + password (Basic), or bearerToken / token. */
export function credentialsFromSecretData(data: Record<string, string> | undefined): GitCredentials | undefined {
  if (!data) return undefined;
  const dec = (k: string): string | undefined =>
    data[k] !== undefined ? Buffer.from(data[k]!, 'base64').toString('utf8') : undefined;
  const token = dec('bearerToken') ?? dec('token');
  if (token) return { bearerToken: token };
  const username = dec('username');
  const password = dec('password');
  if (username !== undefined || password !== undefined) return { username: username ?? '', password: password ?? '' };
  return undefined;
}

export interface AuthHooks {
  headers: Record<string, string>;
  onAuth?: AuthCallback;
  onAuthFailure: AuthFailureCallback;
  /** Whether the server rejected the credentials we offered (set by onAuthFailure). */
  rejected(): boolean;
}

/**
 * isomorphic-git's auth callbacks for one clone or fetch. A bearer token goes in a header (Basic
 * with a placeholder user is GitHub-only); a rejected credential cancels at once instead of
 * asking again, so the caller can say "credentials rejected" rather than loop.
 */
export function authHooks(creds: GitCredentials | undefined): AuthHooks {
  let rejected = false;
  const headers: Record<string, string> = {};
  if (creds && 'bearerToken' in creds) headers.Authorization = `Bearer ${creds.bearerToken}`;
  return {
    headers,
    ...(creds && 'username' in creds ? { onAuth: () => ({ username: creds.username, password: creds.password }) } : {}),
    onAuthFailure: () => {
      rejected = true;
      return { cancel: true };
    },
    rejected: () => rejected,
  };
}
