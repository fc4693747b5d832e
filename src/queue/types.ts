import { exponentialBackoff, type BackoffOptions } from '../util/backoff.js';
import type { ReconcileResult } from '../reconcile/index.js';

export type { ReconcileResult } from '../reconcile/index.js';

/**
 * Runs one key and says how it ended (src/reconcile/result.ts; nothing is a success). A thrown
 * error is retried with per-key backoff, as an error result is. `seen` is the resourceVersion
 * the enqueuer saw when it added the key, if it said: a worker whose cache holds exactly that
 * version may read from the cache instead of asking the server (see ReadCache.cached).
 */
export type ReconcileHandler = (key: string, seen?: string) => Promise<ReconcileResult | void>;

/**
 * The reconcile queue contract, the same for the in-process queue and the BullMQ one:
 * - a key is never handled by two workers at once;
 * - adds of a key already waiting coalesce into one run;
 * - an add while the key runs causes exactly one more run after it;
 * - an error result (or a thrown error) is retried with exponential backoff per key;
 * - a stalled result is not retried (the next add brings the key back);
 * - a success or waiting result forgets the key's failures and, with requeueAfterMs, runs it again then.
 */
export interface WorkQueue {
  add(key: string, seen?: string): void;
  addAfter(key: string, delayMs: number): void;
  start(handler: ReconcileHandler, opts: { concurrency: number }): void;
  /** Waits for running handlers to finish; queued keys are dropped (they are re-derived on start). */
  stop(): Promise<void>;
  /** Keys waiting plus running (a gauge for metrics). */
  depth(): number;
}

export type { BackoffOptions } from '../util/index.js';

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 5 * 60_000 };

/** A failing key's delay before its next run. */
export function backoffDelay(failures: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  return exponentialBackoff(failures, opts);
}
