// The runs of one RunHistory recorded and not written yet (run-history.ts): a burst of runs of one
// object (a StatefulSet coming up re-runs its owner several times a second) becomes one write of
// the record, not one per run.

import { RUN_HISTORY_LIMIT, type Run } from '../api/run-history.js';
import type { KubeObject } from '../kube/index.js';

export type FlowName = { namespace: string; name: string };

export interface RunBatch {
  /** The watched object's identity (kind, name, namespace, uid), not the whole object. */
  obj: KubeObject;
  flow: FlowName;
  /** Newest first, at most RUN_HISTORY_LIMIT: older ones would be cut by the write anyway. */
  runs: Run[];
  /** Runs to add to status.total beyond those listed: counted unchanged ones, and ones cut from `runs`. */
  extra: number;
  /** Whether a record of the object was seen written before (its last-run annotation): read it, do not create. */
  known: boolean;
  /** When the batch was begun, among the record's batches: runs of a higher one are newer. */
  seq: number;
  /** Each caller's promise, resolved when the batch is written (or given up). */
  waiters: Array<() => void>;
}

/** A batch with `run` added as the newest. */
export function addRun(batch: RunBatch, run: Run): void {
  batch.runs.unshift(run);
  if (batch.runs.length > RUN_HISTORY_LIMIT) {
    batch.extra += batch.runs.length - RUN_HISTORY_LIMIT;
    batch.runs.length = RUN_HISTORY_LIMIT;
  }
}

/**
 * A failed batch put back with the one waiting for its record (or none): the retry writes the
 * newest content, the older batch's runs after the newer's, every run counted once.
 */
export function mergeFailed(failed: RunBatch, waiting: RunBatch | undefined): RunBatch {
  if (!waiting) return failed;
  const [newer, older] = waiting.seq > failed.seq ? [waiting, failed] : [failed, waiting];
  const runs = [...newer.runs, ...older.runs];
  const cut = Math.max(0, runs.length - RUN_HISTORY_LIMIT);
  return {
    obj: newer.obj,
    flow: newer.flow,
    runs: runs.slice(0, RUN_HISTORY_LIMIT),
    extra: newer.extra + older.extra + cut,
    known: newer.known || older.known,
    seq: newer.seq,
    waiters: [...older.waiters, ...newer.waiters],
  };
}

/**
 * What a record needs of its object (kind, name, namespace, uid): a batch or a count waiting keeps
 * this, not the whole object, which the watch cache has replaced by then.
 */
export function identityOf(obj: KubeObject): KubeObject {
  const { name, namespace, uid } = obj.metadata;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: { ...(name ? { name } : {}), ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) },
  };
}
