// The face of src/queue/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { BullConsumer, type BullConsumerOptions } from './bullmq-consumer.js';
export { BullProducer } from './bullmq-producer.js';
export { Resync } from './resync.js';
export { QueueRunCauses } from './run-triggers.js';
export type { BackoffOptions, ReconcileResult, WorkQueue } from './types.js';
// faces:end
