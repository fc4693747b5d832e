// kube-apiserver's ValidateLeaseSpec (kubernetes/kubernetes pkg/apis/coordination/validation/validation.go):
// a lease lasts more than 0 seconds and has not changed hands a negative number of times.
import type { JsonObject } from '../registry/types.js';
import { invalid } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { objectAt } from './pod-spec.js';

export function leaseCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  const d = spec.leaseDurationSeconds;
  if (typeof d === 'number' && d <= 0) causes.push(invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  const t = spec.leaseTransitions;
  if (typeof t === 'number' && t < 0)
    causes.push(invalid('spec.leaseTransitions', t, 'must be greater than or equal to 0'));
  return causes;
}
