import { Worker, type Job } from 'bullmq';
import {
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  type BullProducer,
  type BullQueueOptions,
  type ReconcileJobData,
} from './bullmq-producer.js';
import { ReconcileErrorResult, requeueAfterOf } from '../reconcile/index.js';
import { createRedis, queuePrefix, type RedisClient } from './redis-connection.js';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  type BackoffOptions,
  type ReconcileHandler,
  type ReconcileResult,
} from './types.js';

export interface BullConsumerOptions extends BullQueueOptions {
  backoff?: BackoffOptions;
  /** How long a job's lock lives without renewal; a killed worker's job is recovered after about this (BullMQ default 30 s). */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs (default: lockDuration). */
  stalledIntervalMs?: number;
}

/**
 * The consumer side (worker processes): runs the handler for each job. BullMQ's dedup keeps one
 * active job per key across every consumer. The handler's result (src/reconcile/result.ts) is
 * honoured as the in-process queue does: an error result (or a thrown error) fails the job, which
 * BullMQ retries with the capped per-key exponential backoff; a stalled result completes the job
 * without a retry; a success or waiting result with requeueAfterMs adds the key again, delayed,
 * through the producer once the job has finished.
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
      const result = (await handler(job.data.key, job.data.seen)) ?? undefined;
      // BullMQ retries only a thrown error: the error result is carried as one.
      if (result?.kind === 'error') throw new ReconcileErrorResult(result.code, result.message);
      if (result?.kind === 'stalled') {
        log.debug({ key: job.data.key, code: result.code, err: result.message }, 'reconcile stalled; not retried');
      }
      return result;
    };
    const worker = new Worker<ReconcileJobData, ReconcileResult | undefined>(
      this.opts.name ?? DEFAULT_QUEUE_NAME,
      process,
      {
        connection: (this.redis = createRedis(this.opts.redisUrl)),
        prefix: queuePrefix(this.opts.redisUrl, this.opts.prefix ?? DEFAULT_PREFIX),
        concurrency: Math.max(1, opts.concurrency),
        lockDuration,
        stalledInterval: this.opts.stalledIntervalMs ?? lockDuration,
        // A job whose worker died is moved back to waiting, not failed, a few times over.
        maxStalledCount: 5,
        settings: { backoffStrategy: (attemptsMade: number) => backoffDelay(attemptsMade, backoff) },
      },
    );
    worker.on('error', (err: Error) => log.warn({ err: err.message }, 'worker error'));
    worker.on('failed', (job, err) =>
      log.debug(
        { key: job?.data.key, attempt: job?.attemptsMade, err: err.message },
        'reconcile failed; retried with backoff',
      ),
    );
    worker.on('completed', (job, result) => {
      const after = requeueAfterOf(result);
      if (after) this.producer.addAfter(job.data.key, after);
    });
    this.worker = worker;
  }

  /** Stops taking jobs and waits for the running ones to finish (SIGTERM). */
  async stop(): Promise<void> {
    await this.worker?.close();
    this.redis?.disconnect();
  }
}
