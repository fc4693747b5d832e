import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** How a kubeconfig reaches an authenticating embedded server: its CA and a bearer token. */
export interface EmbeddedCredentials {
  caCert: string;
  token: string;
}

/** The cluster and user entries of a kubeconfig for the embedded server (shared with the kubeconfig merge). */
export function embeddedEntries(
  serverUrl: string,
  creds?: EmbeddedCredentials,
): { cluster: Record<string, unknown>; user: Record<string, unknown> } {
  if (!creds) return { cluster: { server: serverUrl, 'insecure-skip-tls-verify': true }, user: {} };
  return {
    cluster: { server: serverUrl, 'certificate-authority-data': Buffer.from(creds.caCert).toString('base64') },
    user: { token: creds.token },
  };
}

/**
 * A kubeconfig for the embedded server that both kubectl and @kubernetes/client-node accept:
 * client-node refuses plain http unless the cluster says insecure-skip-tls-verify. With
 * credentials the server is HTTPS, trusted by its CA, and the user is the admin token.
 */
export function embeddedKubeconfig(serverUrl: string, name = 'flowops', creds?: EmbeddedCredentials): string {
  const { cluster, user } = embeddedEntries(serverUrl, creds);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
  });
}

export function writeKubeconfig(file: string, serverUrl: string, creds?: EmbeddedCredentials): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, embeddedKubeconfig(serverUrl, 'flowops', creds), { mode: 0o600 });
}
