// The cluster-wide classes a Pod names: kube-apiserver's ValidatePriorityClass and ValidatePriorityClassUpdate
// (kubernetes/kubernetes pkg/apis/scheduling/validation/validation.go, with core's ValidatePreemptionPolicy), and
// ValidateRuntimeClass and ValidateRuntimeClassUpdate (pkg/apis/node/validation/validation.go; overhead and
// scheduling are stored unchecked).
import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { immutable, str } from './checks.js';
import { dns1123LabelErrors } from './dns.js';

const HIGHEST_USER_PRIORITY = 1_000_000_000;
const PREEMPTION = ['Never', 'PreemptLowerPriority'];

export function priorityClassCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  if (old) {
    const causes = obj.value === old.value ? [] : [forbidden('value', 'may not be changed in an update.')];
    return [...causes, ...immutable(obj.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy')];
  }
  const causes: FieldCause[] = [];
  const name = isObject(obj.metadata) ? str(obj.metadata.name) : '';
  if (!name.startsWith('system-') && typeof obj.value === 'number' && obj.value > HIGHEST_USER_PRIORITY) {
    const detail = `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`;
    causes.push(forbidden('value', detail));
  }
  const p = obj.preemptionPolicy;
  if (p === '') causes.push(required('preemptionPolicy'));
  else if (p !== undefined && p !== null && (typeof p !== 'string' || !PREEMPTION.includes(p)))
    causes.push(notSupported('preemptionPolicy', p, ['PreemptLowerPriority', 'Never']));
  return causes;
}

export function runtimeClassCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const handler = str(obj.handler);
  const causes = dns1123LabelErrors(handler).map((m) => invalid('handler', handler, m));
  return old ? [...causes, ...immutable(obj.handler, old.handler, 'handler')] : causes;
}
