// Deletes children the Flow made and no longer renders, and, when the watched object goes, the
// children Kubernetes' garbage collector cannot reach (no ownerReference: cluster-scoped, or in
// another namespace). An object is deleted only while its annotations still name this Flow and
// this owner: objects the Flow never made, or that someone took over, are never touched.

import { FLOW_ANNOTATION, OWNER_ANNOTATION, ownerAnnotationOf } from '../executors/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { describeChild, refOfChild, type ChildEntry } from './child-inventory.js';

export interface PruneResult {
  deleted: ChildEntry[];
  /** Left alone: gone already, or no longer annotated as this owner's. */
  skipped: ChildEntry[];
  /** Deletion failed; they stay in the inventory so the next reconcile tries again. */
  failed: ChildEntry[];
  failures: string[];
}

export interface PruneScope {
  kube: KubeClient;
  /** `namespace/name` of the Flow. */
  flow: string;
  owner: KubeObject;
}

export async function deleteChildren(
  scope: PruneScope,
  entries: readonly ChildEntry[],
  skipOwnedBy?: string,
): Promise<PruneResult> {
  const out: PruneResult = { deleted: [], skipped: [], failed: [], failures: [] };
  const owner = ownerAnnotationOf(scope.owner);
  for (const entry of entries) {
    try {
      const live = await scope.kube.get(refOfChild(entry));
      const a = live?.metadata.annotations ?? {};
      const ours = live && a[FLOW_ANNOTATION] === scope.flow && a[OWNER_ANNOTATION] === owner;
      // With an ownerReference to the departing owner, the garbage collector deletes it.
      const collected =
        skipOwnedBy !== undefined && (live?.metadata.ownerReferences ?? []).some((r) => r.uid === skipOwnedBy);
      if (!ours || collected) out.skipped.push(entry);
      else {
        await scope.kube.delete(refOfChild(entry));
        out.deleted.push(entry);
      }
    } catch (e) {
      out.failed.push(entry);
      out.failures.push(`delete ${describeChild(entry)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}
