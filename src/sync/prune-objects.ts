import type { InventoryEntry, SkippedEntry } from '../api/index.js';
import type { KubeClient } from '../kube/index.js';
import { foreignOwner, isAdopted } from './foreign.js';
import { refOfEntry } from './inventory.js';
import { forEachLimit } from './limit.js';
import { phaseOf } from './order.js';
import { provenanceOf } from './provenance.js';

export interface PruneOptions {
  kube: KubeClient;
  /** `namespace/name` of the FlowSource. */
  source: string;
  /** Inventory entries whose definitions the new commit no longer has. */
  entries: readonly InventoryEntry[];
  concurrency?: number;
}

export interface PruneOutcome {
  pruned: InventoryEntry[];
  /** Not deleted because another tool tracks them (dropped from the inventory: they are not ours now). */
  skipped: SkippedEntry[];
  /** Deletion failed: they stay in the inventory so that the next sync tries again. */
  failed: InventoryEntry[];
  failures: string[];
}

/**
 * Deletes objects this source applied and the new commit no longer defines. Only inventory entries
 * are candidates, and an object is deleted only while its provenance still names this source and
 * no other GitOps tool has taken it over. Flows go first and CRDs last, the reverse of applying.
 */
export async function pruneObjects(opts: PruneOptions): Promise<PruneOutcome> {
  const out: PruneOutcome = { pruned: [], skipped: [], failed: [], failures: [] };
  const byPhase = [3, 2, 1, 0].map((p) => opts.entries.filter((e) => phaseOf(e) === p)).filter((l) => l.length);
  for (const phase of byPhase) {
    await forEachLimit(phase, opts.concurrency ?? 16, async (entry) => {
      try {
        const live = await opts.kube.get(refOfEntry(entry));
        const { path: _p, ...ref } = entry;
        const owner = live ? foreignOwner(live) : undefined;
        if (live && owner && !isAdopted(live)) out.skipped.push({ ...ref, reason: `not pruned: tracked by ${owner}` });
        else if (live && provenanceOf(live)?.source !== opts.source)
          out.skipped.push({ ...ref, reason: 'not pruned: no longer applied by this FlowSource' });
        else {
          if (live) await opts.kube.delete(refOfEntry(entry));
          out.pruned.push(entry);
        }
      } catch (e) {
        out.failed.push(entry);
        out.failures.push(`prune ${entry.kind} ${entry.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
  }
  return out;
}
