// Finds the cluster a command talks to the way kubectl does (--kubeconfig, KUBECONFIG, ~/.kube/config,
// the in-cluster ServiceAccount) and turns each way that can fail into a SetupError, before the
// client library reports it in words that tell a newcomer nothing.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { KubeClient } from '../kube/index.js';
import { SetupError } from '../util/setup-error.js';

let serverInUse: string | undefined;

/** The API server URL of the last client made here, for the one-line error when it does not answer. */
export const clusterInUse = (): string | undefined => serverInUse;

export const NO_CLUSTER_HINT = 'set KUBECONFIG, or run "flowops up" and use .flowops/kubeconfig';

/** The kubeconfig files kubectl would read, or 'in-cluster'. Throws SetupError when there is none. */
export function kubeconfigSource(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] | 'in-cluster' {
  if (flag) {
    if (!existsSync(flag)) throw new SetupError(`no kubeconfig at ${flag} (--kubeconfig): ${NO_CLUSTER_HINT}`);
    return [flag];
  }
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  if (listed.length) {
    const present = listed.filter((f) => existsSync(f));
    if (!present.length)
      throw new SetupError(`no kubeconfig at ${listed.join(delimiter)} (KUBECONFIG): ${NO_CLUSTER_HINT}`);
    return present;
  }
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  if (existsSync(home)) return [home];
  if (env.KUBERNETES_SERVICE_HOST && existsSync('/var/run/secrets/kubernetes.io/serviceaccount/token'))
    return 'in-cluster';
  throw new SetupError(`no cluster: ${NO_CLUSTER_HINT}`);
}

/** A client for the cluster kubectl would use; SetupError for a missing kubeconfig or one without a usable current context. */
export async function kubeClientFor(flag: string | undefined): Promise<KubeClient> {
  const source = kubeconfigSource(flag);
  const [{ KubeClient }, { KubeConfig }] = await Promise.all([
    import('../kube/client.js'),
    import('../kube/kube-config.js'),
  ]);
  const kc = new KubeConfig();
  try {
    if (source === 'in-cluster') kc.loadFromCluster();
    else if (source.length === 1) kc.loadFromFile(source[0]!);
    else kc.loadFromDefault();
  } catch (e) {
    throw new SetupError(
      `cannot read kubeconfig ${source === 'in-cluster' ? '(in-cluster)' : source.join(delimiter)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (source !== 'in-cluster') {
    const current = kc.getCurrentContext();
    const names = kc.getContexts().map((c) => c.name);
    if (!current || !names.includes(current)) {
      const choose = names.length
        ? `run "kubectl config use-context NAME" (contexts: ${names.join(', ')})`
        : 'it lists no contexts';
      throw new SetupError(
        `kubeconfig ${source.join(delimiter)} has no current context${current ? ` named "${current}"` : ''}: ${choose}`,
      );
    }
    if (!kc.getCurrentCluster())
      throw new SetupError(`kubeconfig ${source.join(delimiter)}: context "${current}" names no cluster`);
  }
  serverInUse = kc.getCurrentCluster()?.server;
  return new KubeClient(kc);
}
