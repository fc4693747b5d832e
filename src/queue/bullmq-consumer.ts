import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from '../log/index.js';
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME, type BullProducer, type BullQueueOptions, type ReconcileJobData } from './bullmq-producer.js';
import { isPermanent } from './errors.js';
import { createRedis, queuePrefix, type RedisClient } from './redis-connection.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions, type ReconcileHandler, type ReconcileResult } from './types.js';

export interface BullConsumerOptions extends BullQueueOptions {
  backoff?: BackoffOptions;
  /** How long a job's lock lives without renewal; a killed worker's job is recovered after about this (BullMQ default 30 s). */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs (default: lockDuration). */
  stalledIntervalMs?: number;
}

/**
 * The consumer side (worker processes): runs the handler for each job. BullMQ's dedup keeps one
 * active job per key across every consumer; a thrown error is retried with the capped per-key
 * exponential backoff; PermanentError stops retries; a result with requeueAfterMs adds the key
 * again, delayed, through the producer once the job has finished.
 */
export class BullConsumer {
  private worker: Worker<ReconcileJobData, ReconcileResult | undefined> | undefined;
  /** The worker's connection: ours to disconnect once the worker has closed. */
  private redis: RedisClient | undefined;

  constructor(
    private readonly opts: BullConsumerOptions,
    private readonly producer: BullProducer,
  ) {}

  start(handler: ReconcileHandler, opts: { concurrency: number }): void {
    const { log } = this.opts;
    const backoff = this.opts.backoff ?? DEFAULT_BACKOFF;
    const lockDuration = this.opts.lockDurationMs ?? 30_000;
    const process = async (job: Job<ReconcileJobData>): Promise<ReconcileResult | undefined> => {
      try {
        return (await handler(job.data.key, job.data.seen)) ?? undefined;
      } catch (err) {
        if (isPermanent(err)) throw new UnrecoverableError(err instanceof Error ? err.message : String(err));
        throw err;
      }
    };
    const worker = new Worker<ReconcileJobData, ReconcileResult | undefined>(this.opts.name ?? DEFAULT_QUEUE_NAME, process, {
      connection: (this.redis = createRedis(this.opts.redisUrl)),
      prefix: queuePrefix(this.opts.redisUrl, this.opts.prefix ?? DEFAULT_PREFIX),
      concurrency: Math.max(1, opts.concurrency),
      lockDuration,
      stalledInterval: this.opts.stalledIntervalMs ?? lockDuration,
      // A job whose worker died is moved back to waiting, not failed, a few times over.
      maxStalledCount: 5,
      settings: { backoffStrategy: (attemptsMade: number) => backoffDelay(attemptsMade, backoff) },
    });
    worker.on('error', (err: Error) => log.warn({ err: err.message }, 'worker error'));
    worker.on('failed', (job, err) => log.debug({ key: job?.data.key, attempt: job?.attemptsMade, err: err.message }, 'reconcile failed; retried with backoff'));
    worker.on('completed', (job, result) => {
      if (result?.requeueAfterMs) this.producer.addAfter(job.data.key, result.requeueAfterMs);
    });
    this.worker = worker;
  }

  /** Stops taking jobs and waits for the running ones to finish (SIGTERM). */
  async stop(): Promise<void> {
    await this.worker?.close();
    this.redis?.disconnect();
  }
}
