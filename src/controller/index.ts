// The face of src/controller/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { FlowRegistry, type FlowEntry, type FlowListener } from './flow-registry.js';
export { FlowStatusReporter } from './flow-status-reporter.js';
export { FlowSourceController } from './flowsource/controller.js';
export { decryptionKeys, sourceCredentials } from './flowsource/credentials.js';
export { exportsDirOf, repoDirOf, sourcePathPrefix } from './flowsource/reconciler.js';
export type { GenerationChoice, GenerationChooser } from './generation-choice.js';
export { QueueRunCauses } from './queue-run-causes.js';
export { ReadCache } from './read-cache.js';
export { ReconcileHandler } from './reconcile-handler.js';
export { RunCauses, type RunCauseLog } from './run-causes.js';
export type { TenancyPolicy } from './tenancy.js';
export { WatchSet } from './watch-set.js';
// faces:end
