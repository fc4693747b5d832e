import type { InventoryEntry } from '../api/index.js';
import type { ObjectRef } from '../kube/index.js';

/** Identity of an object across commits: group/kind/namespace/name (the version may change). */
export function objectId(o: {
  apiVersion: string;
  kind: string;
  namespace?: string | undefined;
  name: string;
}): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  return `${group}/${o.kind}/${o.namespace ?? ''}/${o.name}`;
}

export const refOfEntry = (e: InventoryEntry): ObjectRef => ({
  apiVersion: e.apiVersion,
  kind: e.kind,
  name: e.name,
  namespace: e.namespace,
});

export const describeEntry = (e: { kind: string; namespace?: string | undefined; name: string }): string =>
  `${e.kind} ${e.namespace ? `${e.namespace}/` : ''}${e.name}`;
