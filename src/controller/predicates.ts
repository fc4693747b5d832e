import type { KubeObject } from '../kube/types.js';

/**
 * Which updates of a watched object deserve a reconcile: a spec change (generation), label or
 * annotation changes, or deletion progress. Status-only writes, including FlowOps' own Ready
 * condition, do not, or every reconcile would trigger the next one.
 */
export function updateNeedsReconcile(old: KubeObject, obj: KubeObject): boolean {
  const a = old.metadata;
  const b = obj.metadata;
  if (a.generation === undefined || b.generation === undefined) return a.resourceVersion !== b.resourceVersion && !onlyStatusChanged(old, obj);
  if (a.generation !== b.generation) return true;
  if (a.deletionTimestamp !== b.deletionTimestamp) return true;
  return !same(a.labels, b.labels) || !same(a.annotations, b.annotations) || !same(a.finalizers, b.finalizers);
}

function onlyStatusChanged(old: KubeObject, obj: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const { status: _s, metadata, ...rest } = o;
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = metadata;
    return JSON.stringify({ ...rest, metadata: meta });
  };
  return strip(old) === strip(obj);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
