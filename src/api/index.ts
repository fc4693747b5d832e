// The face of src/api/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { ChartRef } from './chart-ref.js';
export { flowCrd, type CustomResourceDefinition } from './crd.js';
export { formatDuration, parseDuration } from './duration.js';
export {
  flowSpecSchema,
  type ErrorHandling,
  type FlowSpec,
  type HttpStep,
  type KubectlStep,
  type PipelineStep,
  type ScriptStep,
  type Step,
  type StepType,
  type TemplateStep,
} from './flow.js';
export { flowSourceCrd } from './flowsource-crd.js';
export {
  flowSourceSpecSchema,
  type CommitState,
  type FlowSourceSpec,
  type FlowSourceStatus,
  type HistoryEntry,
  type InventoryEntry,
  type OciSourceSpec,
  type PreviewRender,
  type SkippedEntry,
} from './flowsource.js';
export {
  ALERT_KIND,
  FLOWSOURCE_API_VERSION,
  FLOWSOURCE_KIND,
  FLOW_API_VERSION,
  FLOW_KIND,
  PROVIDER_KIND,
  RUNHISTORY_KIND,
} from './names.js';
export { alertCrd, providerCrd } from './notify-crd.js';
export {
  COMMIT_STATUS_TYPES,
  alertSpecSchema,
  providerSpecSchema,
  type AlertSpec,
  type EventSource,
  type ProviderSpec,
  type ProviderType,
} from './notify.js';
export { formatPath, type FieldPath } from './problem.js';
export { RECONCILE_REQUEST_ANNOTATION } from './reconcile-request.js';
export {
  CONTROL_DONE,
  ROLLOUT_CONTROLS,
  ROLLOUT_PAUSED_ANNOTATION,
  RolloutControlError,
  controlPatch,
  type RolloutControl,
} from './rollout-controls.js';
export {
  FLOW_GENERATION_ANNOTATION,
  PINNED_BY_ANNOTATION,
  PIN_REASON_ANNOTATION,
  REVISION_FLOW_LABEL,
  ROLLOUT_TARGET_ANNOTATION,
  revisionName,
} from './rollout-names.js';
export type { RolloutSpec, RolloutStage } from './rollout-spec.js';
export type { GenerationStatus, RolloutStatus, StageStatus } from './rollout-status.js';
export { runHistoryCrd } from './run-history-crd.js';
export { RUN_HISTORY_LIMIT, type Run, type RunHistory, type RunTrigger } from './run-history.js';
export type { FlowStatus } from './status.js';
export type { StructuralSchema } from './structural.js';
export { placeTemplateErrors, type FlowFile } from './template-positions.js';
export { parseFlow, validateParsedFlowFile, type ParsedYaml } from './validate.js';
export { compareValidationErrors, formatValidationError, type ValidationError } from './validation-error.js';
export { YamlLocator } from './yaml-positions.js';
export { zodProblems } from './zod-issues.js';
// faces:end
