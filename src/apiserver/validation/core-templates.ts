// Part of kube-apiserver's core validation (kubernetes/kubernetes pkg/apis/core/validation/validation.go) for
// the core kinds that carry a pod template: ValidatePodTemplate (ValidatePodTemplateSpec's pod spec),
// ValidateReplicationController (ValidateReplicationControllerSpec: the selector and template required,
// ValidatePodTemplateSpecForRC's restartPolicy Always and no activeDeadlineSeconds, minReadySeconds) and
// ValidateReplicationControllerStatus. The selector-to-template match is in selector-kinds.ts' neighbour rules.
import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { nonNegative } from './checks.js';
import { labelMapCauses } from './label-selector.js';
import { objectAt, podSpecCauses } from './pod-spec.js';

const MISMATCH = '`selector` does not match template `labels`';
const NO_DEADLINE = 'activeDeadlineSeconds in ReplicationController is not Supported';

export function podTemplateCauses(obj: JsonObject): FieldCause[] {
  return podSpecCauses(objectAt(objectAt(obj, 'template'), 'spec'), 'template.spec');
}

export function replicationControllerCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = nonNegative(spec, ['replicas', 'minReadySeconds'], 'spec');
  const selector = isObject(spec.selector) ? spec.selector : {};
  if (!Object.keys(selector).length) causes.push(required('spec.selector'));
  else causes.push(...labelMapCauses(selector, 'spec.selector'));
  if (!isObject(spec.template)) return [...causes, required('spec.template')];
  const labels = objectAt(objectAt(spec, 'template'), 'metadata').labels;
  const have = isObject(labels) ? labels : {};
  if (Object.keys(selector).length && Object.entries(selector).some(([k, v]) => have[k] !== v))
    causes.push(invalid('spec.template.metadata.labels', labels ?? null, MISMATCH));
  const pod = objectAt(objectAt(spec, 'template'), 'spec');
  const path = 'spec.template.spec';
  causes.push(...podSpecCauses(pod, path));
  const rp = pod.restartPolicy;
  if (typeof rp === 'string' && rp !== 'Always') causes.push(notSupported(`${path}.restartPolicy`, rp, ['Always']));
  if (pod.activeDeadlineSeconds != null) causes.push(forbidden(`${path}.activeDeadlineSeconds`, NO_DEADLINE));
  return causes;
}

/** ValidateReplicationControllerStatus: counts not negative and not above what contains them. */
export function replicationControllerStatusCauses(obj: JsonObject): FieldCause[] {
  const status = objectAt(obj, 'status');
  const fields = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'];
  const causes = nonNegative(status, fields, 'status');
  const n = (f: string): number => (typeof status[f] === 'number' ? status[f] : 0);
  const above = (f: string, than: string): void => {
    if (n(f) > n(than)) causes.push(invalid(`status.${f}`, n(f), `cannot be greater than status.${than}`));
  };
  above('fullyLabeledReplicas', 'replicas');
  above('readyReplicas', 'replicas');
  above('availableReplicas', 'replicas');
  above('availableReplicas', 'readyReplicas');
  return causes;
}
