// The face of src/operator/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { DeclarativeController } from './controller.js';
export { flowPipelineController } from './flow-pipeline.js';
export type { ControllerStatus } from './health.js';
export type { OperatorManager } from './operator-manager.js';
export { startOperators } from './runtime.js';
export { isViewGroup } from './types.js';
export { crdViewBackend, viewCrd, type ViewBackend } from './view-backend.js';
// faces:end
