// The one closed set of reconcile results, as Flux's reconcilers return them (fluxcd/pkg's
// serror.Stalling / serror.Waiting / serror.Generic beside reconcile.ResultSuccess). Every
// reconciler returns one of these and the work queues honour them the same way:
//   success  done; requeued after requeueAfterMs when given (a resync interval), failures forgotten
//   waiting  not done, nothing wrong: requeued after requeueAfterMs, failures forgotten
//   error    failed, a retry may help: requeued with the per-key backoff
//   stalled  failed for good: not requeued; the next change of the key brings it back
// A thrown exception is an error the reconciler did not foresee; the queues back it off as an error.

export type ReconcileResult =
  | { readonly kind: 'success'; readonly requeueAfterMs?: number }
  | { readonly kind: 'waiting'; readonly requeueAfterMs: number; readonly reason: string }
  | { readonly kind: 'error'; readonly code: string; readonly message: string }
  | { readonly kind: 'stalled'; readonly code: string; readonly message: string };

export type ResultKind = ReconcileResult['kind'];

/** The code of an error result made from an exception nothing foresaw. */
export const UNEXPECTED = 'Unexpected';

export function success(requeueAfterMs?: number): ReconcileResult {
  return requeueAfterMs !== undefined && requeueAfterMs > 0 ? { kind: 'success', requeueAfterMs } : { kind: 'success' };
}

export function waiting(requeueAfterMs: number, reason: string): ReconcileResult {
  return { kind: 'waiting', requeueAfterMs: Math.max(1, requeueAfterMs), reason };
}

export function failed(code: string, message: string): ReconcileResult {
  return { kind: 'error', code, message };
}

export function stalled(code: string, message: string): ReconcileResult {
  return { kind: 'stalled', code, message };
}

/** An exception as an error result (its message; the code says nothing foresaw it). */
export function unexpected(err: unknown): ReconcileResult {
  return failed(UNEXPECTED, err instanceof Error ? err.message : String(err));
}

/** When the queue should run the key again without backoff; undefined: not on a timer. */
export function requeueAfterOf(result: ReconcileResult | void): number | undefined {
  if (!result) return undefined;
  return result.kind === 'success' || result.kind === 'waiting' ? result.requeueAfterMs : undefined;
}

/**
 * How a handler's answer is carried through a queue that retries only thrown errors (BullMQ):
 * an error result becomes this, thrown; its code and message survive in the job's failedReason.
 */
export class ReconcileErrorResult extends Error {
  override readonly name = 'ReconcileErrorResult';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
