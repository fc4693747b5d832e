import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log/index.js';
import { createRedis } from './redis-connection.js';

export const RECONCILE_JOB = 'reconcile';
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME } from './names.js';

export { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME } from './names.js';

/** What every reconcile job carries: only the key; the worker reads current state when it runs. */
export interface ReconcileJobData {
  key: string;
}

export interface BullQueueOptions {
  redisUrl: string;
  /** Queue name; tests use a unique one each. */
  name?: string;
  /** Redis key prefix (BullMQ's default is "bull"). */
  prefix?: string;
  log: Logger;
}

/**
 * Per-key serialisation (measured in library-probe §2): at most one waiting and one active job per
 * key; an add while the key is active is kept and becomes exactly one more run when it ends.
 * `replace` lets a change cut short a delayed job (a retry backoff or a requeue-after timer), as
 * client-go's Add bypasses the rate limiter. Retries are unlimited; the consumer's backoff
 * strategy caps the delay (the in-process queue's contract).
 */
function jobOptions(key: string, delayMs: number): JobsOptions {
  return {
    deduplication: { id: key, keepLastIfActive: true, ...(delayMs > 0 ? {} : { replace: true }) },
    ...(delayMs > 0 ? { delay: delayMs } : {}),
    attempts: Number.MAX_SAFE_INTEGER,
    backoff: { type: 'flowops' },
    removeOnComplete: true,
    removeOnFail: { count: 1000 },
  };
}

/**
 * The producer side of the reconcile queue (the leader): adds keys. Fire-and-forget like the
 * WorkQueue contract; during a Redis outage ioredis holds the commands until it reconnects, and the
 * resync after the reconnect re-derives anything lost.
 */
export class BullProducer {
  readonly queue: Queue<ReconcileJobData>;
  /** Our own connection, so reconnects are visible (see Resync). */
  readonly redis: Redis;
  private lastDepth = 0;

  constructor(readonly opts: BullQueueOptions) {
    this.redis = createRedis(opts.redisUrl);
    this.redis.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'redis connection error (producer)'));
    this.queue = new Queue<ReconcileJobData>(opts.name ?? DEFAULT_QUEUE_NAME, { connection: this.redis, prefix: opts.prefix ?? DEFAULT_PREFIX });
    this.queue.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'queue error'));
  }

  add(key: string): void {
    this.addAfter(key, 0);
  }

  addAfter(key: string, delayMs: number): void {
    this.queue.add(RECONCILE_JOB, { key }, jobOptions(key, Math.max(0, delayMs))).catch((err: unknown) => this.opts.log.warn({ err, key }, 'could not enqueue'));
  }

  /** Many keys in one round trip (resyncs); dedup collapses those already queued. */
  async addAll(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      await this.queue.addBulk(keys.slice(i, i + 1000).map((key) => ({ name: RECONCILE_JOB, data: { key }, opts: jobOptions(key, 0) })));
    }
  }

  /** Keys waiting plus running, read from Redis (delayed requeues are timers, not depth). */
  async depthNow(): Promise<number> {
    const c = await this.queue.getJobCounts('waiting', 'active', 'prioritized');
    this.lastDepth = Object.values(c).reduce((a, b) => a + b, 0);
    return this.lastDepth;
  }

  /** The last depth read (WorkQueue.depth is synchronous); refreshed by depthNow / the metrics scrape. */
  depth(): number {
    void this.depthNow().catch(() => undefined);
    return this.lastDepth;
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
