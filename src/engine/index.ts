// The face of src/engine/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { INVENTORY_ANNOTATION, childId, readInventory, refOfChild } from './child-inventory.js';
export { FAILURE_ANNOTATION, readFailure } from './failure-state.js';
export { FlowReconciler, type RunCause } from './flow-reconciler.js';
export type { FlowDefinition, ReconcileReport } from './flow-run.js';
export { LAST_RUN_ANNOTATION, readLastRun, type LastRun } from './last-run.js';
export { RunHistoryWriter, readRuns } from './run-history.js';
export type { StepObserver } from './run-steps.js';
// faces:end
