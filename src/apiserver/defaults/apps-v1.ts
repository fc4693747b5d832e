import type { Operation } from '../objects/object-store.js';
import type { JsonObject } from '../registry/types.js';
import { applyRows, existingAt, existingObject, objectAt, objectsIn, type DefaultRow } from './fields.js';
import { defaultTemplateOf, PVC_SPEC } from './pod-spec.js';

/** apps/v1 defaulting: pkg/apis/apps/v1/defaults.go, plus the pod template's PodSpec defaults. */

/** SetDefaults_Deployment, the spec's own fields. */
const DEPLOYMENT_SPEC: readonly DefaultRow[] = [
  ['replicas', 1, 'nil'],
  ['revisionHistoryLimit', 10, 'nil'],
  ['progressDeadlineSeconds', 600, 'nil'],
];

/** SetDefaults_Deployment's RollingUpdate strategy: 25% / 25%. */
const DEPLOYMENT_ROLLING_UPDATE: readonly DefaultRow[] = [
  ['maxUnavailable', '25%', 'nil'],
  ['maxSurge', '25%', 'nil'],
];

/** SetDefaults_StatefulSet, the spec's own fields. */
const STATEFUL_SET_SPEC: readonly DefaultRow[] = [
  ['podManagementPolicy', 'OrderedReady', 'zero'],
  ['replicas', 1, 'nil'],
  ['revisionHistoryLimit', 10, 'nil'],
];

/** SetDefaults_StatefulSet: persistentVolumeClaimRetentionPolicy (StatefulSetAutoDeletePVC, GA). */
const PVC_RETENTION: readonly DefaultRow[] = [
  ['whenDeleted', 'Retain', 'zero'],
  ['whenScaled', 'Retain', 'zero'],
];

/** SetDefaults_DaemonSet's RollingUpdate strategy: 1 / 0. */
const DAEMON_SET_ROLLING_UPDATE: readonly DefaultRow[] = [
  ['maxUnavailable', 1, 'nil'],
  ['maxSurge', 0, 'nil'],
];

const REVISION_HISTORY: readonly DefaultRow[] = [['revisionHistoryLimit', 10, 'nil']];
const REPLICAS: readonly DefaultRow[] = [['replicas', 1, 'nil']];

export function defaultDeployment(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, DEPLOYMENT_SPEC);
  const strategy = objectAt(spec, 'strategy');
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') applyRows(objectAt(strategy, 'rollingUpdate'), DEPLOYMENT_ROLLING_UPDATE);
  defaultTemplateOf(spec);
}

export function defaultStatefulSet(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, STATEFUL_SET_SPEC);
  const strategy = objectAt(spec, 'updateStrategy');
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    objectAt(strategy, 'rollingUpdate');
  }
  // A RollingUpdate given without rollingUpdate keeps it absent: only a present one gets partition 0.
  const rolling = strategy.type === 'RollingUpdate' ? existingObject(strategy, 'rollingUpdate') : undefined;
  if (rolling) applyRows(rolling, [['partition', 0, 'nil']]);
  applyRows(objectAt(spec, 'persistentVolumeClaimRetentionPolicy'), PVC_RETENTION);
  defaultTemplateOf(spec);
  // The claim templates are PersistentVolumeClaims: SetDefaults_PersistentVolumeClaim(Spec).
  for (const claim of objectsIn(spec, 'volumeClaimTemplates')) {
    applyRows(objectAt(claim, 'spec'), PVC_SPEC);
    const status = objectAt(claim, 'status');
    if (!status.phase) status.phase = 'Pending';
  }
}

export function defaultDaemonSet(obj: JsonObject, op: Operation): void {
  const spec = objectAt(obj, 'spec');
  // daemonSetStrategy.PrepareForCreate: the template generation rollouts compare with; kube-apiserver
  // records it as the creator's. (Its bump when an update changes the template is not done here.)
  if (op === 'CREATE')
    objectAt(objectAt(obj, 'metadata'), 'annotations')['deprecated.daemonset.template.generation'] = '1';
  const strategy = objectAt(spec, 'updateStrategy');
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') applyRows(objectAt(strategy, 'rollingUpdate'), DAEMON_SET_ROLLING_UPDATE);
  applyRows(spec, REVISION_HISTORY);
  defaultTemplateOf(spec);
}

export function defaultReplicaSet(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, REPLICAS);
  defaultTemplateOf(spec);
}

/**
 * statefulSetStrategy's dropStatefulSetDisabledFields: a rolling update's maxUnavailable belongs to
 * MaxUnavailableStatefulSet, off by default in v1.34, and is dropped unless the stored set has one.
 */
export function dropDisabledStatefulSetFields(obj: JsonObject, old: JsonObject | undefined): void {
  if (existingAt(old, 'spec', 'updateStrategy', 'rollingUpdate')?.maxUnavailable != null) return;
  const rolling = existingAt(obj, 'spec', 'updateStrategy', 'rollingUpdate');
  if (rolling) delete rolling.maxUnavailable;
}
