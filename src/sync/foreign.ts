import type { KubeObject } from '../kube/index.js';

/** Lets FlowOps take over an object another GitOps tool tracks. */
export const ADOPT_ANNOTATION = 'flowops.io/adopt';

/**
 * The other tool that tracks this live object, if any: Argo CD (tracking-id annotation, or its
 * instance label/annotation) or Flux (kustomize- or helm-controller labels). `app.kubernetes.io/instance`
 * alone is the common Helm label, so it counts only beside an Argo CD marker.
 */
export function foreignOwner(obj: KubeObject): string | undefined {
  const a = obj.metadata.annotations ?? {};
  const l = obj.metadata.labels ?? {};
  if (a['argocd.argoproj.io/tracking-id']) return `Argo CD (tracking-id ${a['argocd.argoproj.io/tracking-id']})`;
  if (a['argocd.argoproj.io/instance'] || l['argocd.argoproj.io/instance'])
    return `Argo CD (application ${a['argocd.argoproj.io/instance'] ?? l['argocd.argoproj.io/instance']})`;
  if (l['kustomize.toolkit.fluxcd.io/name'])
    return `Flux Kustomization ${l['kustomize.toolkit.fluxcd.io/namespace'] ?? ''}/${l['kustomize.toolkit.fluxcd.io/name']}`.replace(
      ' /',
      ' ',
    );
  if (l['helm.toolkit.fluxcd.io/name'])
    return `Flux HelmRelease ${l['helm.toolkit.fluxcd.io/namespace'] ?? ''}/${l['helm.toolkit.fluxcd.io/name']}`.replace(
      ' /',
      ' ',
    );
  return undefined;
}

export const isAdopted = (obj: KubeObject | undefined): boolean =>
  obj?.metadata.annotations?.[ADOPT_ANNOTATION] === 'true';
