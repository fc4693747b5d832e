// The one backoff formula FlowOps uses, client-go's ItemExponentialFailureRateLimiter: the first
// retry waits baseMs, each further one twice as long, never more than maxMs. The work queues, the
// informers' reconnects, the Operator write queue and a step's exponential retries all call it.
// Its own module rather than a library: the callers need only the delay (BullMQ's backoffStrategy,
// a timer, a pause), while the retry libraries on npm (exponential-backoff, p-retry) own the retry
// loop and its jitter; one line of client-go's formula is not worth a dependency that runs the loop.

export interface BackoffOptions {
  /** The first retry's delay. */
  baseMs: number;
  /** The cap. */
  maxMs: number;
}

/** Delay before retry number `attempt` (1-based; 0 or less counts as the first). */
export function exponentialBackoff(attempt: number, opts: BackoffOptions): number {
  return Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
}
