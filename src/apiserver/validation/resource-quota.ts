// kube-apiserver v1.34's ValidateResourceQuota, ValidateResourceQuotaUpdate and
// ValidateResourceQuotaStatusUpdate (pkg/apis/core/validation/validation.go): each hard and used
// resource a quota resource with a valid value; scopes standard, fit for every hard resource and
// not in conflict; a scope selector's expressions as validateScopedResourceSelectorRequirement
// checks them; scopes fixed once created.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { IMMUTABLE } from './checks.js';
import { isStandardQuotaResource, quantityOf, quantityValueCauses, quotaResourceNameCauses } from './resource-names.js';

const SCOPES = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'VolumeAttributesClass',
  'CrossNamespacePodAffinity',
]);
const POD_COMPUTE = new Set([
  'pods',
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);
const EXISTS_ONLY = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
]);
const CONFLICTS: Array<[string, string]> = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** helper.IsResourceQuotaScopeValidForResource. */
function scopeFits(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COMPUTE.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    case 'VolumeAttributesClass':
      return resource === 'persistentvolumeclaims' || resource === 'requests.storage';
    default:
      return true;
  }
}

const strings = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.map((s) => (typeof s === 'string' ? s : '')) : [];

function resourceListCauses(list: JsonValue | undefined, path: string): FieldCause[] {
  if (!isObject(list)) return [];
  const causes: FieldCause[] = [];
  for (const [k, v] of Object.entries(list)) {
    causes.push(...quotaResourceNameCauses(k, `${path}[${k}]`));
    const q = quantityOf(v);
    if (q) causes.push(...quantityValueCauses(k, q, `${path}[${k}]`));
  }
  return causes;
}

function scopeCauses(spec: JsonObject, hard: string[]): FieldCause[] {
  const scopes = strings(spec.scopes);
  if (scopes.length === 0) return [];
  const causes: FieldCause[] = [];
  for (const scope of scopes) {
    if (!SCOPES.has(scope)) causes.push(invalid('spec.scopes', scopes, 'unsupported scope'));
    for (const k of hard)
      if (isStandardQuotaResource(k) && !scopeFits(scope, k))
        causes.push(invalid('spec.scopes', scopes, 'unsupported scope applied to resource'));
  }
  for (const [a, b] of CONFLICTS)
    if (scopes.includes(a) && scopes.includes(b)) causes.push(invalid('spec.scopes', scopes, 'conflicting scopes'));
  return causes;
}

function scopeSelectorCauses(spec: JsonObject, hard: string[]): FieldCause[] {
  const selector = spec.scopeSelector;
  if (!isObject(selector)) return [];
  const path = 'spec.scopeSelector.matchExpressions';
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  for (const req of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    if (!isObject(req)) continue;
    const scope = typeof req.scopeName === 'string' ? req.scopeName : '';
    const operator = typeof req.operator === 'string' ? req.operator : '';
    const values = strings(req.values);
    if (!SCOPES.has(scope)) causes.push(invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard)
      if (isStandardQuotaResource(k) && !scopeFits(scope, k))
        causes.push(invalid(path, selector, 'unsupported scope applied to resource'));
    if (EXISTS_ONLY.has(scope) && operator !== 'Exists')
      causes.push(
        invalid(
          `${path}.operator`,
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0)
        causes.push(
          required(
            `${path}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0)
        causes.push(
          invalid(
            `${path}.values`,
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else causes.push(invalid(`${path}.operator`, operator, 'not a valid selector operator'));
    seen.add(scope);
  }
  // Upstream shows spec.scopes as the value here, not the selector's scopes.
  for (const [a, b] of CONFLICTS)
    if (seen.has(a) && seen.has(b)) causes.push(invalid(path, spec.scopes ?? null, 'conflicting scopes'));
  return causes;
}

function specCauses(spec: JsonObject): FieldCause[] {
  const hard = isObject(spec.hard) ? Object.keys(spec.hard).sort() : [];
  return [
    ...resourceListCauses(spec.hard, 'spec.hard'),
    ...scopeCauses(spec, hard),
    ...scopeSelectorCauses(spec, hard),
  ];
}

function statusCauses(obj: JsonObject): FieldCause[] {
  const status = isObject(obj.status) ? obj.status : {};
  return [...resourceListCauses(status.hard, 'status.hard'), ...resourceListCauses(status.used, 'status.used')];
}

export function resourceQuotaCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  if (!old) return [...specCauses(spec), ...statusCauses(obj)];
  const causes = specCauses(spec);
  const before = new Set(strings(isObject(old.spec) ? old.spec.scopes : undefined));
  const now = new Set(strings(spec.scopes));
  if (before.size !== now.size || [...now].some((s) => !before.has(s)))
    causes.push(invalid('spec.scopes', spec.scopes ?? null, IMMUTABLE));
  return causes;
}

/** ValidateResourceQuotaStatusUpdate (its resourceVersion is required upstream; a write here always has one). */
export const resourceQuotaStatusCauses = statusCauses;
