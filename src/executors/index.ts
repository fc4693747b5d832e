// The face of src/executors/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { AppliedCache, type LiveChild } from './applied-cache.js';
export { ownerAnnotationOf } from './apply-objects.js';
export { httpExecutor } from './http.js';
export { executorFor, registerExecutor } from './registry.js';
export { scriptExecutor } from './script.js';
export {
  FIELD_MANAGER,
  FLOW_ANNOTATION,
  OWNER_ANNOTATION,
  StepError,
  type ChildRecorder,
  type OutputValue,
  type Outputs,
  type StepContext,
  type StepExecutor,
  type TemplateData,
} from './types.js';
// faces:end
