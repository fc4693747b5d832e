// The face of src/kube/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { KubeClient, isConflict, isNotFound, type PatchType } from './client.js';
export { conditionsOf, findCondition, nowRfc3339, removeCondition, setCondition } from './conditions.js';
export { crdKinds } from './crd-kinds.js';
export { UnknownKindError, resourcePath, type ApiResource } from './discovery.js';
export { EventRecorder } from './events.js';
export { FLOW_FINALIZER, hasFinalizer, setFinalizer } from './finalizer.js';
export { Informer, dropManagedFields, type InformerHandlers } from './informer.js';
export { KubeConfig } from './kube-config.js';
export type { MergeResult } from './kubeconfig-merge.js';
export { writeKubeconfig, type EmbeddedCredentials } from './kubeconfig.js';
export { defaultIdentity } from './leader-election.js';
export { microTime, parseMicroTime } from './micro-time.js';
export { objectYaml } from './object-yaml.js';
export { healthOf, type HealthStatus } from './readiness.js';
export { KubeApiError } from './rest.js';
export { withoutServerNoise, withoutTransitionTimes } from './server-noise.js';
export { describeRef, refOf, type Condition, type KubeObject, type ObjectRef, type OwnerReference } from './types.js';
// faces:end
