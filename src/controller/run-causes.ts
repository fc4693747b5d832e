// Why each waiting key was enqueued, told from the watches to the reconcile handler: a key whose
// every enqueue since its last run was a child's status change may re-judge instead of running its
// steps; one enqueue for any other cause makes it a full run. Keys enqueued by no watch (a resync's
// requeue, a retry) have no entry and run in full. Each enqueue's trigger is kept too, for the
// run's record (RunHistory's triggers). In one process (`flowops up`) they are kept here, in
// memory; across processes (leader and workers) in Redis beside the queue (controller/queue-run-causes.ts).

import { LRUCache } from 'lru-cache';
import type { RunTrigger } from '../api/index.js';
import type { RunCause } from '../engine/index.js';

/** What made the run starting now. */
export interface RunCauseTaken {
  cause: RunCause;
  triggers: RunTrigger[];
}

/** Where the watches mark why they enqueue a key and the reconcile handler takes it when the key runs. */
export interface RunCauseLog {
  /** Called before the key is added to the queue. */
  mark(key: string, cause: RunCause, trigger?: RunTrigger): void;
  /** The cause of the run starting now and what triggered it; forgets them, so the next enqueue starts afresh. */
  take(key: string): RunCauseTaken | Promise<RunCauseTaken>;
}

/** The trigger an enqueue records when its caller names none. */
export function triggerOf(cause: RunCause, trigger?: RunTrigger): RunTrigger {
  return trigger ?? (cause === 'child-status' ? 'child-status' : 'object-change');
}

/** Nothing watched enqueued the key: the queue did (a resync interval, a retry, the leader's resync). */
export const UNMARKED: RunCauseTaken = { cause: 'other', triggers: ['resync'] };

/** The cause of a run from its triggers: a child's status change only, or anything else. */
export function causeOf(triggers: readonly RunTrigger[]): RunCause {
  return triggers.length > 0 && triggers.every((t) => t === 'child-status') ? 'child-status' : 'other';
}

interface Causes {
  cause: RunCause;
  triggers: Set<RunTrigger>;
}

/** The in-process log (`flowops up`). */
export class RunCauses implements RunCauseLog {
  // Bounded: a key enqueued and never run (its Flow deleted first) must not stay for ever.
  private readonly causes = new LRUCache<string, Causes>({ max: 100_000 });

  mark(key: string, cause: RunCause, trigger?: RunTrigger): void {
    const t = triggerOf(cause, trigger);
    const c = this.causes.get(key);
    if (!c) this.causes.set(key, { cause, triggers: new Set([t]) });
    else {
      if (cause === 'other') c.cause = cause;
      c.triggers.add(t);
    }
  }

  take(key: string): RunCauseTaken {
    const c = this.causes.get(key);
    this.causes.delete(key);
    return c ? { cause: c.cause, triggers: [...c.triggers] } : UNMARKED;
  }
}
