// Part of kube-apiserver's apps validation (kubernetes/kubernetes pkg/apis/apps/validation/validation.go):
// ValidatePodTemplateSpecForReplicaSet and ValidatePodTemplateSpecForStatefulSet (restartPolicy Always,
// no activeDeadlineSeconds), ValidateDeploymentSpec's numbers, ValidateDeploymentUpdate's immutable
// selector (ReplicaSet, StatefulSet and DaemonSet likewise), ValidateDeploymentStatus,
// ValidateControllerRevisionCreate and ValidateControllerRevisionUpdate.
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { selectorOf } from './label-selector.js';
import { objectAt, podSpecCauses } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';
import { statefulSetCauses } from './statefulset.js';

const NONNEGATIVE = 'must be greater than or equal to 0';

function nonNegative(obj: JsonObject, fields: string[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const f of fields) {
    const v = obj[f];
    if (typeof v === 'number' && v < 0) causes.push(invalid(`${path}.${f}`, v, NONNEGATIVE));
  }
  return causes;
}

/** The template's pod spec as a workload of `kind` must have it. */
function templateCauses(spec: JsonObject, kind: string): FieldCause[] {
  const pod = objectAt(objectAt(spec, 'template'), 'spec');
  const path = 'spec.template.spec';
  const causes = podSpecCauses(pod, path);
  const rp = pod.restartPolicy;
  if (typeof rp === 'string' && rp !== 'Always') causes.push(notSupported(`${path}.restartPolicy`, rp, ['Always']));
  if (pod.activeDeadlineSeconds != null) {
    causes.push(forbidden(`${path}.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return causes;
}

function deploymentSpecCauses(spec: JsonObject): FieldCause[] {
  const causes = nonNegative(spec, ['minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds'], 'spec');
  const pds = spec.progressDeadlineSeconds;
  const mrs = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
  if (typeof pds === 'number' && pds <= mrs)
    causes.push(invalid('spec.progressDeadlineSeconds', pds, 'must be greater than minReadySeconds'));
  return causes;
}

const STATUS_COUNTS = [
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
  'terminatingReplicas',
];

/** ValidateDeploymentStatus (ReplicaSet's is alike): counts not negative and not above what contains them. */
export function deploymentStatusCauses(status: JsonObject): FieldCause[] {
  const causes = nonNegative(status, ['observedGeneration', ...STATUS_COUNTS], 'status');
  const n = (f: string): number => (typeof status[f] === 'number' ? (status[f] as number) : 0);
  const above = (f: string, than: string): void => {
    if (n(f) > n(than)) causes.push(invalid(`status.${f}`, n(f), `cannot be greater than status.${than}`));
  };
  above('updatedReplicas', 'replicas');
  above('readyReplicas', 'replicas');
  above('availableReplicas', 'replicas');
  above('availableReplicas', 'readyReplicas');
  return causes;
}

/** ValidateReplicaSetStatus: as a Deployment's, with fullyLabeledReplicas, and its own wording of one message. */
export function replicaSetStatusCauses(status: JsonObject): FieldCause[] {
  const causes = nonNegative(
    status,
    [
      'replicas',
      'fullyLabeledReplicas',
      'readyReplicas',
      'availableReplicas',
      'observedGeneration',
      'terminatingReplicas',
    ],
    'status',
  );
  const n = (f: string): number => (typeof status[f] === 'number' ? (status[f] as number) : 0);
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'])
    if (n(f) > n('replicas')) causes.push(invalid(`status.${f}`, n(f), 'cannot be greater than status.replicas'));
  if (n('availableReplicas') > n('readyReplicas'))
    causes.push(invalid('status.availableReplicas', n('availableReplicas'), 'cannot be greater than readyReplicas'));
  return causes;
}

const TEMPLATE_KIND: Record<string, string> = {
  Deployment: 'ReplicaSet',
  ReplicaSet: 'ReplicaSet',
  DaemonSet: 'DaemonSet',
  StatefulSet: 'StatefulSet',
};

export function appsCauses(kind: string, obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const templateKind = TEMPLATE_KIND[kind];
  if (!templateKind) return [];
  const spec = objectAt(obj, 'spec');
  // ValidateDeploymentSpec (and ReplicaSet's, StatefulSet's) check the template only against a selector that parses.
  const parses = kind === 'DaemonSet' || selectorOf(spec.selector) !== undefined;
  const causes = parses ? templateCauses(spec, templateKind) : [];
  if (kind === 'Deployment') causes.push(...deploymentSpecCauses(spec));
  // ValidateReplicaSetSpec's numbers (replicas are ReplicasValidation's).
  if (kind === 'ReplicaSet') causes.push(...nonNegative(spec, ['minReadySeconds'], 'spec'));
  // ValidateDaemonSetSpec, after the template (updateStrategy's checks are not written here).
  if (kind === 'DaemonSet') causes.push(...nonNegative(spec, ['minReadySeconds', 'revisionHistoryLimit'], 'spec'));
  // A StatefulSet's selector is one of the spec fields its update may not move (statefulset.ts).
  if (kind === 'StatefulSet') return [...causes, ...statefulSetCauses(obj, old)];
  const oldSelector: JsonValue | undefined = old ? objectAt(old, 'spec').selector : undefined;
  if (old && !semanticEqual(spec.selector, oldSelector))
    causes.push(invalid('spec.selector', spec.selector ?? null, 'field is immutable'));
  return causes;
}

/**
 * ValidateControllerRevisionCreate (data a JSON object, revision not negative) and
 * ValidateControllerRevisionUpdate (data fixed).
 */
export function controllerRevisionCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const revision = obj.revision;
  const causes = typeof revision === 'number' && revision < 0 ? [invalid('revision', revision, NONNEGATIVE)] : [];
  if (old) {
    if (!semanticEqual(obj.data, old.data)) causes.push(invalid('data', obj.data ?? null, 'field is immutable'));
    return causes;
  }
  const data = obj.data;
  if (data === undefined || data === null) causes.push(required('data', 'data is mandatory'));
  else if (typeof data !== 'object' || Array.isArray(data))
    causes.push(required('data', 'data must be a valid JSON object'));
  return causes;
}
