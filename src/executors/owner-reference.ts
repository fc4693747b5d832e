// ownerReferences to the watched resource, so that Kubernetes' garbage collector removes what a
// Flow created together with the resource — only where Kubernetes honours such a reference.

import type { KubeObject, OwnerReference } from '../kube/index.js';

export type OwnerDecision = { ref: OwnerReference } | { skip: string };

/**
 * Kubernetes' rules: a cluster-scoped owner can own anything; a namespaced owner only objects in
 * its own namespace (a reference across namespaces or from a cluster-scoped child is treated as
 * unresolvable and the child is deleted by the garbage collector, so it must not be set).
 */
export function ownerReferenceFor(
  owner: KubeObject,
  child: { namespaced: boolean; namespace: string | undefined },
): OwnerDecision {
  const uid = owner.metadata.uid;
  const name = owner.metadata.name;
  if (!uid || !name) return { skip: 'the watched resource has no uid/name (it was not read from the API server)' };
  const ownerNs = owner.metadata.namespace;
  if (ownerNs) {
    if (!child.namespaced)
      return { skip: `a namespaced owner (namespace ${ownerNs}) cannot own a cluster-scoped object` };
    if (child.namespace !== ownerNs) {
      return {
        skip: `a namespaced owner can only own objects in its own namespace (${ownerNs}), not in ${child.namespace ?? '<none>'}`,
      };
    }
  }
  return {
    ref: { apiVersion: owner.apiVersion, kind: owner.kind, name, uid, controller: true, blockOwnerDeletion: true },
  };
}

/**
 * Adds `ref` to the references the manifest already lists. Kubernetes allows one controller
 * reference, so ours gives way to one the author wrote.
 */
export function mergeOwnerReference(existing: OwnerReference[] | undefined, ref: OwnerReference): OwnerReference[] {
  const others = (existing ?? []).filter((r) => r.uid !== ref.uid);
  const controlled = others.some((r) => r.controller === true);
  return [...others, controlled ? { ...ref, controller: false } : ref];
}
