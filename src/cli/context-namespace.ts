import type { KubeClient } from '../kube/index.js';

/** The namespace a command acts in without -n, as kubectl picks it: the current context's, else "default". */
export function contextNamespace(kube: KubeClient): string {
  return kube.config.getContextObject(kube.config.getCurrentContext())?.namespace ?? 'default';
}
