// The face of src/runtime/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { LeaderRunnable, LeaderWork, ShardedWatches } from './leader-work.js';
export type { SourcesOptions } from './sources.js';
export type { WorkerRuntime } from './worker-process.js';
// faces:end
