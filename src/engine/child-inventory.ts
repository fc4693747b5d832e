// The set of children one reconcile of a watched object applied, kept on the watched object so it
// survives a restart and a leader change (Flux keeps its inventory in its object's status). It is
// an annotation rather than a status field because the watched kind's CRD schema is the user's:
// a structural status schema would prune a field it does not declare, and built-in kinds such as
// ConfigMap have no status at all. The predicate on watched objects ignores this annotation.

import type { KubeObject, ObjectRef } from '../kube/index.js';
import { describeEntry, objectId } from '../sync/inventory.js';

export const INVENTORY_ANNOTATION = 'flowops.io/inventory';

export interface ChildEntry {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  /**
   * Who removes it when the watched object is deleted. Absent: the garbage collector, through the
   * ownerReference. `flowops`: no ownerReference could be set (cluster-scoped, other namespace),
   * so FlowOps deletes it after onDelete. `keep`: applied with `ownerReference: false`, left in place.
   */
  cleanup?: 'flowops' | 'keep';
}

/** Identity across versions: group/Kind/namespace/name, as the Git sync's inventory has it. */
export const childId = objectId;

export const refOfChild = (e: ChildEntry): ObjectRef => ({
  apiVersion: e.apiVersion,
  kind: e.kind,
  name: e.name,
  ...(e.namespace ? { namespace: e.namespace } : {}),
});

export const describeChild = describeEntry;

/** The inventory the last successful reconcile wrote; an unreadable annotation counts as none. */
export function readInventory(obj: KubeObject): ChildEntry[] {
  const raw = obj.metadata.annotations?.[INVENTORY_ANNOTATION];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

function isEntry(v: unknown): v is ChildEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.apiVersion === 'string' &&
    typeof e.kind === 'string' &&
    typeof e.name === 'string' &&
    (e.namespace === undefined || typeof e.namespace === 'string')
  );
}

/** Sorted by id so that the same set always serialises to the same text (an unchanged set is no write). */
export function encodeInventory(entries: readonly ChildEntry[]): string {
  return JSON.stringify([...entries].sort((a, b) => (childId(a) < childId(b) ? -1 : childId(a) > childId(b) ? 1 : 0)));
}

/** Entries of `before` that `after` no longer has: what a prune deletes. */
export function staleEntries(before: readonly ChildEntry[], after: readonly ChildEntry[]): ChildEntry[] {
  const kept = new Set(after.map(childId));
  return before.filter((e) => !kept.has(childId(e)));
}

/** The distinct child kinds of an inventory, as `apiVersion\u001fkind`. */
export function inventoryKinds(entries: readonly ChildEntry[]): string[] {
  return [...new Set(entries.map((e) => `${e.apiVersion}\u001f${e.kind}`))];
}
