// kube-apiserver's ValidatePodDisruptionBudgetSpec (kubernetes/kubernetes pkg/apis/policy/validation/validation.go,
// with apps' ValidatePositiveIntOrPercent and IsNotMoreThan100Percent): minAvailable or maxUnavailable, each a
// non-negative number or a percent up to 100 %, and unhealthyPodEvictionPolicy. The selector is in selector-kinds.ts.
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, notSupported } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { objectAt } from './pod-spec.js';

const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used " +
  "for validation is '[0-9]+%')";
const POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
export function intOrPercentCauses(v: JsonValue | undefined, path: string): FieldCause[] {
  if (typeof v === 'number') return v < 0 ? [invalid(path, v, 'must be greater than or equal to 0')] : [];
  if (typeof v !== 'string') return [];
  if (!/^[0-9]+%$/.test(v)) return [invalid(path, v, PERCENT_MSG)];
  return Number(v.slice(0, -1)) > 100 ? [invalid(path, v, 'must not be greater than 100%')] : [];
}

const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

export function podDisruptionBudgetCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  if (set(spec.minAvailable) && set(spec.maxUnavailable))
    causes.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  causes.push(...intOrPercentCauses(spec.minAvailable, 'spec.minAvailable'));
  causes.push(...intOrPercentCauses(spec.maxUnavailable, 'spec.maxUnavailable'));
  const p = spec.unhealthyPodEvictionPolicy;
  if (set(p) && (typeof p !== 'string' || !POLICIES.includes(p)))
    causes.push(notSupported('spec.unhealthyPodEvictionPolicy', p, POLICIES));
  return causes;
}
