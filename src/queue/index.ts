// The face of src/queue/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { BullConsumer, type BullConsumerOptions } from './bullmq-consumer.js';
export { BullProducer } from './bullmq-producer.js';
export { MemoryQueue } from './memory-queue.js';
export { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME } from './names.js';
export { queuePrefix, type RedisClient } from './redis-connection.js';
export { Resync } from './resync.js';
export type { BackoffOptions, ReconcileResult, WorkQueue } from './types.js';
// faces:end
