// kube-apiserver's validateHorizontalPodAutoscalerSpec (kubernetes/kubernetes
// pkg/apis/autoscaling/validation/validation.go): minReplicas at least 1 (the registry's MinReplicasLowerBound,
// HPAScaleToZero being off), maxReplicas above 0 and not below minReplicas, ValidateCrossVersionObjectReference
// for scaleTargetRef (ValidateAPIVersion: a group is required). Metrics and behavior are stored unchecked.
// autoscaling/v1 and v2 objects share these fields.
import type { JsonObject } from '../registry/types.js';
import { invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { pathSegmentErrors, requiredString, str } from './checks.js';
import { objectAt } from './pod-spec.js';

function apiVersionError(v: string): string | undefined {
  if (v === '' || v === 'v1') return 'apiVersion must specify API group';
  const parts = v.split('/');
  if (parts.length > 2) return `unexpected GroupVersion string: ${v}`;
  return parts.length === 1 ? 'apiVersion must specify API group' : undefined;
}

export function hpaCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  const min = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (min !== undefined && min < 1) causes.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) causes.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min)
    causes.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const ref = objectAt(spec, 'scaleTargetRef');
  const path = 'spec.scaleTargetRef';
  causes.push(...requiredString(ref, 'kind', `${path}.kind`, pathSegmentErrors));
  causes.push(...requiredString(ref, 'name', `${path}.name`, pathSegmentErrors));
  const av = str(ref.apiVersion);
  const err = apiVersionError(av);
  if (err) causes.push(invalid(`${path}.apiVersion`, av, err));
  return causes.length || spec.scaleTargetRef !== undefined ? causes : [required(path)];
}
