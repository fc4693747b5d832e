import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { RealControlPlane } from './control-plane.js';

/**
 * A kubeconfig holding a token of ServiceAccount ns/name, obtained through the TokenRequest API
 * (`kubectl create token`) as an operator does for a workload: whoever uses it has exactly the
 * RBAC bound to that ServiceAccount and nothing of the admin's rights.
 */
export async function serviceAccountKubeconfig(cp: RealControlPlane, namespace: string, name: string): Promise<string> {
  const token = (await cp.kubectl.ok(['create', 'token', name, '-n', namespace, '--duration', '2h'])).trim();
  const admin = parse(await cp.kubectl.ok(['config', 'view', '--raw', '-o', 'yaml'])) as {
    clusters: Array<{ cluster: Record<string, string> }>;
  };
  const cluster = admin.clusters[0]!.cluster;
  const file = join(cp.dir, `sa-${namespace}-${name}.kubeconfig`);
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'control-plane',
        cluster: { server: cluster.server, 'certificate-authority-data': cluster['certificate-authority-data'] },
      },
    ],
    users: [{ name, user: { token } }],
    contexts: [{ name, context: { cluster: 'control-plane', user: name, namespace } }],
    'current-context': name,
  };
  writeFileSync(file, JSON.stringify(kubeconfig), { mode: 0o600 });
  return file;
}
