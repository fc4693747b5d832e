// Where a namespaced object goes when its manifest or target names no namespace.

import type { StepContext } from './types.js';

/**
 * The watched resource's namespace (children live beside their owner); for a cluster-scoped
 * resource, the kubeconfig context's namespace, as kubectl would pick, else "default".
 */
export function defaultNamespace(ctx: StepContext): string {
  const own = ctx.resource.metadata.namespace;
  if (own) return own;
  const context = ctx.kube.config.getContextObject(ctx.kube.config.getCurrentContext());
  return context?.namespace || 'default';
}
