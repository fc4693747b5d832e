import { Queue, type JobsOptions } from 'bullmq';
import type { Logger } from '../log/index.js';
import { createRedis, queuePrefix, type RedisClient } from './redis-connection.js';

export const RECONCILE_JOB = 'reconcile';
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME } from './names.js';

export { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME } from './names.js';

/** What every reconcile job carries: only the key; the worker reads current state when it runs. */
export interface ReconcileJobData {
  key: string;
  /** The resourceVersion the leader saw (a cache hint for the worker; never trusted as the state). */
  seen?: string;
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
  readonly redis: RedisClient;
  private lastDepth = 0;
  /** Immediate adds of the current event-loop turn, sent together by `flush`. */
  private readonly batch: Array<{ name: string; data: ReconcileJobData; opts: JobsOptions }> = [];

  constructor(readonly opts: BullQueueOptions) {
    this.redis = createRedis(opts.redisUrl);
    this.redis.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'redis connection error (producer)'));
    this.queue = new Queue<ReconcileJobData>(opts.name ?? DEFAULT_QUEUE_NAME, {
      connection: this.redis,
      prefix: queuePrefix(opts.redisUrl, opts.prefix ?? DEFAULT_PREFIX),
    });
    this.queue.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'queue error'));
  }

  add(key: string, seen?: string): void {
    // Adds of one event-loop turn (a watch chunk, a relist) go to Redis as one addBulk: one round
    // trip instead of one per key. Order is kept, so per-key dedup sees them as before.
    this.batch.push({ name: RECONCILE_JOB, data: seen ? { key, seen } : { key }, opts: jobOptions(key, 0) });
    if (this.batch.length === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => void this.send(this.batch.splice(0));

  private async send(jobs: Array<{ name: string; data: ReconcileJobData; opts: JobsOptions }>): Promise<void> {
    if (jobs.length)
      await this.queue
        .addBulk(jobs)
        .catch((err: unknown) => this.opts.log.warn({ err, keys: jobs.length }, 'could not enqueue'));
  }

  addAfter(key: string, delayMs: number): void {
    if (delayMs <= 0) return this.add(key);
    this.queue
      .add(RECONCILE_JOB, { key }, jobOptions(key, delayMs))
      .catch((err: unknown) => this.opts.log.warn({ err, key }, 'could not enqueue'));
  }

  /** Many keys in one round trip (resyncs); dedup collapses those already queued. */
  async addAll(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      await this.queue.addBulk(
        keys.slice(i, i + 1000).map((key) => ({ name: RECONCILE_JOB, data: { key }, opts: jobOptions(key, 0) })),
      );
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
    await this.send(this.batch.splice(0));
    await this.queue.close();
    this.redis.disconnect();
  }
}
