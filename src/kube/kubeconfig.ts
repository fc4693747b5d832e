import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/**
 * A kubeconfig for the embedded server that both kubectl and @kubernetes/client-node accept:
 * client-node refuses plain http unless the cluster says insecure-skip-tls-verify.
 */
export function embeddedKubeconfig(serverUrl: string, name = 'flowops'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: serverUrl, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
  });
}

export function writeKubeconfig(file: string, serverUrl: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, embeddedKubeconfig(serverUrl), { mode: 0o600 });
}
