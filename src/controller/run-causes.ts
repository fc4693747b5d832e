// Why each waiting key was enqueued, told from the watches to the reconcile handler in the same
// process (`flowops up`): a key whose every enqueue since its last run was a child's status change
// may re-judge instead of running its steps; one enqueue for any other cause makes it a full run.
// Keys enqueued by no watch (a resync's requeue, a retry) have no entry and run in full. Each
// enqueue's trigger is kept too, for the run's record (RunHistory's triggers).

import { LRUCache } from 'lru-cache';
import type { RunTrigger } from '../api/run-history.js';
import type { RunCause } from '../engine/flow-reconciler.js';

interface Causes {
  cause: RunCause;
  triggers: Set<RunTrigger>;
}

export class RunCauses {
  // Bounded: a key enqueued and never run (its Flow deleted first) must not stay for ever.
  private readonly causes = new LRUCache<string, Causes>({ max: 100_000 });

  /** Called before the key is added to the queue. */
  mark(key: string, cause: RunCause, trigger?: RunTrigger): void {
    trigger ??= cause === 'child-status' ? 'child-status' : 'object-change';
    const c = this.causes.get(key);
    if (!c) this.causes.set(key, { cause, triggers: new Set([trigger]) });
    else {
      if (cause === 'other') c.cause = cause;
      c.triggers.add(trigger);
    }
  }

  /** The cause of the run starting now and what triggered it; forgets them, so the next enqueue starts afresh. */
  take(key: string): { cause: RunCause; triggers: RunTrigger[] } {
    const c = this.causes.get(key);
    this.causes.delete(key);
    // Nothing watched enqueued it: the queue did (a resync interval, a retry, the leader's resync).
    return c ? { cause: c.cause, triggers: [...c.triggers] } : { cause: 'other', triggers: ['resync'] };
  }
}
