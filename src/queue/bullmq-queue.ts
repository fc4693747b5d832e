import { BullConsumer, type BullConsumerOptions } from './bullmq-consumer.js';
import { BullProducer } from './bullmq-producer.js';
import type { ReconcileHandler, WorkQueue } from './types.js';

export { BullConsumer, type BullConsumerOptions } from './bullmq-consumer.js';
export {
  BullProducer,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  type BullQueueOptions,
  type ReconcileJobData,
} from './bullmq-producer.js';

/**
 * The WorkQueue contract on BullMQ, producer and consumer in one object (one process, or a test).
 * In a cluster the leader holds only a BullProducer and the worker processes a BullConsumer.
 */
export class BullQueue implements WorkQueue {
  readonly producer: BullProducer;
  readonly consumer: BullConsumer;

  constructor(opts: BullConsumerOptions) {
    this.producer = new BullProducer(opts);
    this.consumer = new BullConsumer(opts, this.producer);
  }

  add(key: string, seen?: string): void {
    this.producer.add(key, seen);
  }

  addAfter(key: string, delayMs: number): void {
    this.producer.addAfter(key, delayMs);
  }

  start(handler: ReconcileHandler, opts: { concurrency: number }): void {
    this.consumer.start(handler, opts);
  }

  /** Waits for running handlers; unlike the in-process queue, queued keys stay in Redis for the next consumer. */
  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.producer.close();
  }

  depth(): number {
    return this.producer.depth();
  }
}
