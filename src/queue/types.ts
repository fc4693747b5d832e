import { exponentialBackoff, type BackoffOptions } from '../util/backoff.js';

/** What a reconcile returned: nothing (done), or ask to be run again after a delay. */
export interface ReconcileResult {
  requeueAfterMs?: number;
}

/**
 * Runs one key; a thrown error means "retry with per-key backoff". `seen` is the resourceVersion
 * the enqueuer saw when it added the key, if it said: a worker whose cache holds exactly that
 * version may read from the cache instead of asking the server (see ReadCache.cached).
 */
export type ReconcileHandler = (key: string, seen?: string) => Promise<ReconcileResult | void>;

/**
 * The reconcile queue contract, the same for the in-process queue and the BullMQ one:
 * - a key is never handled by two workers at once;
 * - adds of a key already waiting coalesce into one run;
 * - an add while the key runs causes exactly one more run after it;
 * - a failing key is retried with exponential backoff, a succeeding one forgets its failures.
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

export type { BackoffOptions } from '../util/backoff.js';

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 5 * 60_000 };

/** A failing key's delay before its next run. */
export function backoffDelay(failures: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  return exponentialBackoff(failures, opts);
}
