import { Queue, Worker } from 'bullmq';
import type { Logger } from '../log/index.js';
import type { BullProducer } from './bullmq-producer.js';
import { createRedis, type RedisClient } from './redis-connection.js';

export interface ResyncOptions {
  producer: BullProducer;
  /** Every key the leader knows (WatchSet.allKeys). */
  keys: () => string[];
  /** Period of the job scheduler (default 10 min, Flux's default interval). */
  everyMs?: number;
  log: Logger;
  /** The control queue's name (default `<queue>-resync`); a sharded replica runs one per shard it holds. */
  control?: string;
}

const SCHEDULER_ID = 'resync-all';

/**
 * Redis is re-derivable: the leader enqueues every watched key when it starts leading, whenever
 * its Redis connection comes back (a restart without persistence lost the queue), and on a BullMQ
 * job scheduler. Dedup collapses keys already queued. The scheduler lives on a small control
 * queue that only the leader consumes, so whichever replica leads runs it.
 */
export class Resync {
  private readonly control: Queue;
  private worker: Worker | undefined;
  /** The control queue's and the worker's connections, disconnected after they close. */
  private readonly controlRedis: RedisClient;
  private workerRedis: RedisClient | undefined;
  private readonly onReady = (): void => {
    this.opts.log.info('redis reconnected; resyncing every key');
    void this.ensureScheduler().then(() => this.run('reconnect'));
  };

  constructor(private readonly opts: ResyncOptions) {
    const { producer } = opts;
    this.controlRedis = createRedis(producer.opts.redisUrl);
    const control = opts.control ?? `${producer.queue.name}-resync`;
    this.control = new Queue(control, { connection: this.controlRedis, prefix: producer.queue.opts.prefix ?? 'bull' });
    this.control.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'resync queue error'));
  }

  async start(): Promise<void> {
    const { producer, log } = this.opts;
    // ioredis emits "ready" again after every reconnect.
    producer.redis.on('ready', this.onReady);
    this.worker = new Worker(this.control.name, () => this.run('scheduled'), {
      connection: (this.workerRedis = createRedis(producer.opts.redisUrl)),
      prefix: this.control.opts.prefix ?? 'bull',
      concurrency: 1,
    });
    this.worker.on('error', (err: Error) => log.warn({ err: err.message }, 'resync worker error'));
    await this.ensureScheduler();
    await this.run('leader start');
  }

  async stop(): Promise<void> {
    this.opts.producer.redis.off('ready', this.onReady);
    await this.worker?.close();
    await this.control.close();
    this.workerRedis?.disconnect();
    this.controlRedis.disconnect();
  }

  /** Enqueues every known key now. */
  async run(reason: string): Promise<void> {
    const keys = this.opts.keys();
    try {
      await this.opts.producer.addAll(keys);
      this.opts.log.debug({ reason, keys: keys.length }, 'resync enqueued every key');
    } catch (err) {
      this.opts.log.warn({ err, reason }, 'resync failed');
    }
  }

  /** Upsert is idempotent; after a Redis restart the scheduler itself must be re-created. */
  private async ensureScheduler(): Promise<void> {
    await this.control
      .upsertJobScheduler(SCHEDULER_ID, { every: this.opts.everyMs ?? 10 * 60_000 }, { name: 'resync' })
      .catch((err: unknown) => this.opts.log.warn({ err }, 'could not create the resync scheduler'));
  }
}
