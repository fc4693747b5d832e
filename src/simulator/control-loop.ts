import type { Logger } from '../log/index.js';
import { MemoryQueue } from '../queue/memory-queue.js';
import type { ReconcileResult } from '../queue/index.js';

/** Failed writes (a conflict, the server restarting) are retried soon: a simulator should catch up quickly. */
const BACKOFF = { baseMs: 100, maxMs: 5_000 };

/** One controller's work queue: keys coalesce, never run twice at once, and a failure is retried with backoff. */
export class ControlLoop {
  private readonly queue: MemoryQueue;

  constructor(
    readonly name: string,
    private readonly log: Logger,
    private readonly reconcile: (key: string) => Promise<ReconcileResult | void>,
  ) {
    this.queue = new MemoryQueue(log.child({ controller: name }), BACKOFF);
  }

  enqueue(key: string | undefined): void {
    if (key !== undefined) this.queue.add(key);
  }

  enqueueAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }

  start(concurrency = 4): void {
    this.queue.start(
      async (key) => {
        try {
          return await this.reconcile(key);
        } catch (err) {
          this.log.debug({ err, controller: this.name, key }, 'simulated controller will retry');
          throw err;
        }
      },
      { concurrency },
    );
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}

/** What every simulated controller offers the simulator that composes them. */
export interface SimulatedController {
  readonly loop: ControlLoop;
}
