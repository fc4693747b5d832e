import pino from 'pino';
import type { Logger } from '../log/index.js';
import type { OutputEvent } from '../pipeline/index.js';
import { MemoryQueue } from '../queue/memory-queue.js';

export interface WriteQueueOptions {
  write(event: OutputEvent): Promise<void>;
  onError(err: unknown, event: OutputEvent): void;
  /** First retry delay; doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Where the queue logs a retry (debug); silent without one. */
  log?: Logger;
}

/**
 * Serialises a controller's target writes on the in-process work queue (one key at a time, one
 * worker). Pending writes coalesce per target key, so a burst of events for one object ends in one
 * write of its latest state, and a failed write is retried with the queue's backoff unless a newer
 * output for the same key replaced it meanwhile.
 */
export class WriteQueue {
  /** The newest output per target key, kept until it is written. */
  private readonly latest = new Map<string, OutputEvent>();
  private readonly queue: MemoryQueue;
  private stopped = false;

  constructor(private readonly opts: WriteQueueOptions) {
    this.queue = new MemoryQueue(opts.log ?? pino({ level: 'silent' }), {
      baseMs: opts.backoffMs ?? 200,
      maxMs: opts.maxBackoffMs ?? 30_000,
    });
    // One worker: a controller's writes go out one after another, as they always have.
    this.queue.start((key) => this.writeOne(key), { concurrency: 1 });
  }

  push(event: OutputEvent): void {
    if (this.stopped) return;
    const key = keyOf(event);
    // A Deleted then Upserted for one key in one batch: the later event is the state to reach.
    this.latest.set(key, event);
    // A newer output supersedes a failed one: its retry is not waited for, its backoff starts over.
    this.queue.forget(key);
    this.queue.add(key);
  }

  /** Resolves when nothing is pending or in flight (tests, CLI dry runs). */
  idle(): Promise<void> {
    return this.queue.whenDrained();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.latest.clear();
    await this.queue.stop();
  }

  private async writeOne(key: string): Promise<void> {
    const event = this.latest.get(key);
    // Written already by an earlier run (a retry's timer that a newer push did not cancel in time).
    if (!event || this.stopped) return;
    try {
      await this.opts.write(event);
    } catch (err) {
      if (this.stopped) return;
      this.opts.onError(err, event);
      // Thrown on: the queue retries the key with its backoff, writing whatever is newest then.
      throw err;
    }
    if (this.latest.get(key) === event) this.latest.delete(key);
  }
}

function keyOf(e: OutputEvent): string {
  const meta = (e.object.metadata ?? {}) as { namespace?: string; name?: string };
  return `${meta.namespace ?? ''}/${meta.name ?? ''}`;
}
