import { type InventoryEntry, type SkippedEntry, formatValidationError, type ValidationError } from '../api/index.js';
import type { KubeClient } from '../kube/index.js';
import type { SopsKeys } from '../source/index.js';
import { applyObjects } from './apply-objects.js';
import { decryptFiles } from './decrypt-files.js';
import { describeEntry, objectId } from './inventory.js';
import { entryOf, planCommit, pruneCandidates, type PlanInput } from './plan.js';
import { pruneObjects } from './prune-objects.js';

export interface SyncCommitOptions extends PlanInput {
  kube: KubeClient;
  fieldManager: string;
  /** `namespace/name` of the FlowSource. */
  source: string;
  /** `<ref>@sha1:<sha>`. */
  revision: string;
  /** An OCI source's artifact: the Git revision it was pushed from. */
  origin?: string | undefined;
  concurrency?: number;
  /** spec.decryption's keys: SOPS files are decrypted in memory; without them a SOPS file rejects the commit. */
  decryption?: SopsKeys | undefined;
}

export type SyncOutcome =
  | { outcome: 'Rejected'; errors: ValidationError[]; message: string }
  | {
      outcome: 'Applied' | 'Failed';
      inventory: InventoryEntry[];
      skipped: SkippedEntry[];
      applied: number;
      pruned: number;
      message: string;
    };

/**
 * One commit, all or nothing at validation: a rejected commit applies nothing. A valid one is
 * applied with provenance, then what it no longer defines is pruned. When applying fails for some
 * object nothing is pruned (the next attempt starts from the same inventory plus what did apply).
 */
export async function syncCommit(opts: SyncCommitOptions): Promise<SyncOutcome> {
  const decrypted = await decryptFiles(opts.files, opts.decryption);
  if (!decrypted.ok) return rejected(decrypted.errors);
  const plan = planCommit({ ...opts, files: decrypted.files });
  if (!plan.ok) return rejected(plan.errors);
  const applied = await applyObjects({
    kube: opts.kube,
    fieldManager: opts.fieldManager,
    source: opts.source,
    revision: opts.revision,
    origin: opts.origin,
    items: plan.apply,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  if (applied.failures.length) {
    return {
      outcome: 'Failed',
      inventory: union(opts.inventory, applied.applied),
      skipped: applied.skipped,
      applied: applied.applied.length,
      pruned: 0,
      message: `apply failed for ${applied.failures.length} object(s), nothing pruned: ${applied.failures.slice(0, 3).join('; ')}`,
    };
  }
  // Objects skipped as foreign are still wanted by the commit: never prune them either.
  const wanted = [...plan.keep, ...applied.applied, ...applied.skipped.map((s) => ({ ...s, path: '' }))];
  const pruned = await pruneObjects({
    kube: opts.kube,
    source: opts.source,
    entries: pruneCandidates(opts.inventory, wanted),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  const inventory = union(plan.keep, applied.applied, pruned.failed);
  const skipped = [...applied.skipped, ...pruned.skipped];
  const counts = `${applied.applied.length} applied, ${pruned.pruned.length} pruned${skipped.length ? `, ${skipped.length} skipped (${skipped.slice(0, 3).map(describeEntry).join(', ')})` : ''}`;
  if (pruned.failures.length) {
    return {
      outcome: 'Failed',
      inventory,
      skipped,
      applied: applied.applied.length,
      pruned: pruned.pruned.length,
      message: `${counts}; ${pruned.failures.slice(0, 3).join('; ')}`,
    };
  }
  return {
    outcome: 'Applied',
    inventory,
    skipped,
    applied: applied.applied.length,
    pruned: pruned.pruned.length,
    message: counts,
  };
}

function rejected(errors: ValidationError[]): SyncOutcome {
  const shown = errors.slice(0, 5).map(formatValidationError).join('; ');
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
  return { outcome: 'Rejected', errors, message: `commit rejected, nothing applied: ${shown}${more}` };
}

function union(...lists: ReadonlyArray<readonly InventoryEntry[]>): InventoryEntry[] {
  const out = new Map<string, InventoryEntry>();
  for (const list of lists) for (const e of list) out.set(objectId(e), e);
  return [...out.values()].sort((a, b) => (objectId(a) < objectId(b) ? -1 : 1));
}

export { entryOf };
