// Progressive rollout of a Flow's generations across its watched objects (issue #24, docs/rollout.md).

export { assignedGeneration, newestPassed, rolloutStatusOf } from './assignment.js';
export { ClusterObjects, type ClusterObjectsDeps } from './cluster-objects.js';
export { RolloutController, type RolloutControllerDeps } from './controller.js';
export { plan, type PlanInput, type PlanOutput } from './plan.js';
export { GenerationResolver, type Resolved } from './resolver.js';
export { REVISION_API_VERSION, REVISION_KIND, RevisionStore, type StoredGeneration } from './revisions.js';
