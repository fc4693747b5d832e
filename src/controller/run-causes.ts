// Why each waiting key was enqueued, told from the watches to the reconcile handler in the same
// process (`flowops up`): a key whose every enqueue since its last run was a child's status change
// may re-judge instead of running its steps; one enqueue for any other cause makes it a full run.
// Keys enqueued by no watch (a resync's requeue, a retry) have no entry and run in full.

import { LRUCache } from 'lru-cache';
import type { RunCause } from '../engine/flow-reconciler.js';

export class RunCauses {
  // Bounded: a key enqueued and never run (its Flow deleted first) must not stay for ever.
  private readonly causes = new LRUCache<string, RunCause>({ max: 100_000 });

  /** Called before the key is added to the queue. */
  mark(key: string, cause: RunCause): void {
    if (cause === 'other' || this.causes.get(key) === undefined) this.causes.set(key, cause);
  }

  /** The cause of the run starting now; forgets it, so the next enqueue starts afresh. */
  take(key: string): RunCause {
    const cause = this.causes.get(key) ?? 'other';
    this.causes.delete(key);
    return cause;
  }
}
