import type { KubeObject } from '../kube/index.js';
import { INVENTORY_ANNOTATION, FAILURE_ANNOTATION, LAST_RUN_ANNOTATION } from '../engine/index.js';
import { FLOW_GENERATION_ANNOTATION } from '../api/index.js';

/** Annotations FlowOps itself writes on watched objects after a run (inventory, failure episode, run record); their changes are not causes. */
const OWN_ANNOTATIONS = [INVENTORY_ANNOTATION, FAILURE_ANNOTATION, LAST_RUN_ANNOTATION, FLOW_GENERATION_ANNOTATION];

/**
 * Which updates of a watched object deserve a reconcile: a spec change (generation), label or
 * annotation changes, or deletion progress. Status-only writes, including FlowOps' own Ready
 * condition, and FlowOps' own inventory and failure annotations do not, or every reconcile would
 * trigger the next one.
 */
export function updateNeedsReconcile(old: KubeObject, obj: KubeObject): boolean {
  const a = old.metadata;
  const b = obj.metadata;
  if (a.generation === undefined || b.generation === undefined)
    return a.resourceVersion !== b.resourceVersion && !onlyStatusChanged(old, obj);
  if (a.generation !== b.generation) return true;
  if (a.deletionTimestamp !== b.deletionTimestamp) return true;
  return (
    !same(a.labels, b.labels) ||
    !same(foreignAnnotations(a.annotations), foreignAnnotations(b.annotations)) ||
    !same(a.finalizers, b.finalizers)
  );
}

function onlyStatusChanged(old: KubeObject, obj: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const { status: _s, metadata, ...rest } = o;
    const { resourceVersion: _rv, managedFields: _mf, annotations, ...meta } = metadata;
    return JSON.stringify({ ...rest, metadata: { ...meta, annotations: foreignAnnotations(annotations) } });
  };
  return strip(old) === strip(obj);
}

function foreignAnnotations(a: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!a || !OWN_ANNOTATIONS.some((k) => k in a)) return a;
  const out = { ...a };
  for (const k of OWN_ANNOTATIONS) delete out[k];
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
