import { stringify } from 'yaml';

export interface ViewKubeconfigOptions {
  server: string;
  user: string;
  token?: string;
  /** PEM of the server's (self-signed) certificate: kubectl then verifies the server against it. */
  caPem?: string;
  insecure?: boolean;
  namespace?: string;
}

/** A kubeconfig for the view API server, with cluster and context named `dcontroller` as the original writes them. */
export function viewKubeconfig(o: ViewKubeconfigOptions): string {
  const cluster: Record<string, unknown> = { server: o.server };
  if (o.caPem && !o.insecure) cluster['certificate-authority-data'] = Buffer.from(o.caPem).toString('base64');
  // client-node refuses plain http unless the cluster is marked insecure, so dev configs are too.
  if (o.insecure) cluster['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'dcontroller', cluster }],
    users: [{ name: o.user, user: o.token ? { token: o.token } : {} }],
    contexts: [
      { name: 'dcontroller', context: { cluster: 'dcontroller', user: o.user, namespace: o.namespace ?? 'default' } },
    ],
    'current-context': 'dcontroller',
  });
}
