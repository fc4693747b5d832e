import type { KubeClient } from '../kube/index.js';

/**
 * Runs `run` with a client from the command's kubeconfig flags and closes it after. The cluster
 * flags' module is loaded only here, when a command runs, so registering commands stays cheap.
 */
export async function withKube<T>(flags: { kubeconfig?: string }, run: (kube: KubeClient) => Promise<T>): Promise<T> {
  const { kubeFrom } = await import('./cluster-flags.js');
  const kube = await kubeFrom(flags);
  try {
    return await run(kube);
  } finally {
    kube.rest.close();
  }
}
