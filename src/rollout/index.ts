// Progressive rollout of a Flow's generations across its watched objects (issue #24, docs/rollout.md).

export { assignedGeneration, newestPassed, rolloutStatusOf } from './assignment.js';
export { ClusterObjects, type ClusterObjectsDeps } from './cluster-objects.js';
export { rolloutConditions } from './conditions.js';
export { RolloutController, type RolloutControllerDeps } from './controller.js';
export * from './names.js';
export { PIN_REASON_ANNOTATION, PINNED_BY_ANNOTATION } from './pin-source.js';
export { plan, type PlanInput, type PlanOutput } from './plan.js';
export { GenerationResolver, type Resolved } from './resolver.js';
export { REVISION_API_VERSION, REVISION_KIND, RevisionStore, type StoredGeneration } from './revisions.js';
export { rolloutSchema, type RolloutSpec, type RolloutStage } from './schema.js';
export * from './status-schema.js';
