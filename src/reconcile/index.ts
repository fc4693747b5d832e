// The reconcile kit: the closed result set and the runner of ordered sub-steps that the Flow and
// the FlowSource reconcilers share, and that the work queues honour.

export {
  failed,
  ReconcileErrorResult,
  requeueAfterOf,
  stalled,
  success,
  UNEXPECTED,
  unexpected,
  waiting,
  type ReconcileResult,
  type ResultKind,
} from './result.js';
export { runReconcile, type SubStep, type Summariser } from './runner.js';
