// kube-apiserver's validateHorizontalPodAutoscalerSpec (kubernetes/kubernetes
// pkg/apis/autoscaling/validation/validation.go): minReplicas at least 1 (the registry's MinReplicasLowerBound,
// HPAScaleToZero being off), maxReplicas above 0 and not below minReplicas, ValidateCrossVersionObjectReference
// for scaleTargetRef (ValidateAPIVersion: a group is required), the metrics (validateMetrics,
// validateMetricSpec and each source's checks) and the behavior (validateBehavior). autoscaling/v1
// objects are checked in their v2 storage form (objects/hpa-conversion.ts), as upstream checks the
// internal form, so a v1 CPU target is reported at spec.metrics[0].resource.target.
import { quantityString } from '../defaults/quantity-string.js';
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { pathSegmentErrors, requiredString, str } from './checks.js';
import { dns1123LabelErrors } from './dns.js';
import { objectAt } from './pod-spec.js';
import { containerResourceNameCauses, quantityOf } from './resource-names.js';

/** ValidateAPIVersion: a malformed version always; an empty group unless `emptyGroup` allows it. */
function apiVersionError(v: string, emptyGroup: boolean): string | undefined {
  const parts = v.split('/');
  if (parts.length > 2) return `unexpected GroupVersion string: ${v}`;
  return !emptyGroup && parts.length === 1 ? 'apiVersion must specify API group' : undefined;
}

/** ValidateCrossVersionObjectReference: kind and name path segments, the apiVersion as `emptyGroup` says. */
function crossVersionRefCauses(ref: JsonObject, path: string, emptyGroup: boolean): FieldCause[] {
  const causes = [
    ...requiredString(ref, 'kind', `${path}.kind`, pathSegmentErrors),
    ...requiredString(ref, 'name', `${path}.name`, pathSegmentErrors),
  ];
  const av = str(ref.apiVersion);
  const err = apiVersionError(av, emptyGroup);
  if (err) causes.push(invalid(`${path}.apiVersion`, av, err));
  return causes;
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
  const path = 'spec.scaleTargetRef';
  causes.push(...crossVersionRefCauses(objectAt(spec, 'scaleTargetRef'), path, false));
  if (!causes.length && spec.scaleTargetRef === undefined) causes.push(required(path));
  causes.push(...metricsCauses(spec), ...behaviorCauses(spec));
  // A v1 CPU target is the internal form's first metric (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_…).
  const cpu = spec.targetCPUUtilizationPercentage;
  if (typeof cpu === 'number' && cpu < 1)
    causes.push(invalid('spec.metrics[0].resource.target.averageUtilization', cpu, 'must be greater than 0'));
  return causes;
}

const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** Each source type's field, in the order validateMetricSpec looks at them. */
const SOURCES: Array<[string, string]> = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
];

const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

function targetCauses(target: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const type = str(target.type);
  if (!type) causes.push(required(`${path}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type))
    causes.push(invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const f of ['value', 'averageValue']) {
    const q = quantityOf(target[f]);
    if (q && q.nanos <= 0n) causes.push(invalid(`${path}.${f}`, quantityString(q), 'must be positive'));
  }
  const u = target.averageUtilization;
  if (typeof u === 'number' && u < 1) causes.push(invalid(`${path}.averageUtilization`, u, 'must be greater than 0'));
  return causes;
}

function identifierCauses(source: JsonObject, path: string): FieldCause[] {
  const name = str(objectAt(source, 'metric').name);
  if (!name) return [required(`${path}.metric.name`, 'must specify a metric name')];
  return pathSegmentErrors(name).map((m) => invalid(`${path}.metric.name`, name, m));
}

function sourceCauses(field: string, source: JsonObject, path: string): FieldCause[] {
  const target = objectAt(source, 'target');
  const causes: FieldCause[] = [];
  const t = `${path}.target`;
  const utilizationOrValue = (): void => {
    causes.push(...targetCauses(target, t));
    if (!isSet(target.averageUtilization) && !isSet(target.averageValue))
      causes.push(required(`${t}.averageUtilization`, 'must set either a target raw value or a target utilization'));
    if (isSet(target.averageUtilization) && isSet(target.averageValue))
      causes.push(forbidden(`${t}.averageValue`, 'may not set both a target raw value and a target utilization'));
  };
  switch (field) {
    case 'object': {
      // ObjectMetricsValidationOptions: an empty group is allowed.
      causes.push(...crossVersionRefCauses(objectAt(source, 'describedObject'), `${path}.describedObject`, true));
      causes.push(...identifierCauses(source, path), ...targetCauses(target, t));
      if (!isSet(target.value) && !isSet(target.averageValue))
        causes.push(required(`${t}.averageValue`, 'must set either a target value or averageValue'));
      break;
    }
    case 'external':
      causes.push(...identifierCauses(source, path), ...targetCauses(target, t));
      if (!isSet(target.value) && !isSet(target.averageValue))
        causes.push(required(`${t}.averageValue`, 'must set either a target value for metric or a per-pod target'));
      if (isSet(target.value) && isSet(target.averageValue))
        causes.push(forbidden(`${t}.value`, 'may not set both a target value for metric and a per-pod target'));
      break;
    case 'pods':
      causes.push(...identifierCauses(source, path), ...targetCauses(target, t));
      if (!isSet(target.averageValue))
        causes.push(required(`${t}.averageValue`, 'must specify a positive target averageValue'));
      break;
    case 'resource':
      if (!str(source.name)) causes.push(required(`${path}.name`, 'must specify a resource name'));
      utilizationOrValue();
      break;
    default: {
      const name = str(source.name);
      if (!name) causes.push(required(`${path}.name`, 'must specify a resource name'));
      else causes.push(...containerResourceNameCauses(name, `${path}.name`));
      const container = str(source.container);
      if (!container) causes.push(required(`${path}.container`, 'must specify a container'));
      else causes.push(...dns1123LabelErrors(container).map((m) => invalid(`${path}.container`, container, m)));
      utilizationOrValue();
    }
  }
  return causes;
}

function metricCauses(metric: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const type = str(metric.type);
  if (!type) causes.push(required(`${path}.type`, 'must specify a metric source type'));
  if (!SOURCE_TYPES.includes(type)) causes.push(notSupported(`${path}.type`, type, SOURCE_TYPES));
  const present: string[] = [];
  for (const [field] of SOURCES) {
    const source = metric[field];
    if (!isObject(source)) continue;
    present.push(field);
    if (present.length === 1) causes.push(...sourceCauses(field, source, `${path}.${field}`));
  }
  const expected = SOURCES.find(([, t]) => t === type)?.[0];
  if (expected === undefined) causes.push(notSupported(`${path}.type`, type, SOURCE_TYPES));
  else if (!isObject(metric[expected]))
    causes.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (present.length !== 1)
    for (const field of present)
      if (field !== expected) causes.push(forbidden(`${path}.${field}`, 'must populate the given metric source only'));
  return causes;
}

function metricsCauses(spec: JsonObject): FieldCause[] {
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : [];
  const causes: FieldCause[] = [];
  metrics.forEach((m, i) => {
    if (isObject(m)) causes.push(...metricCauses(m, `spec.metrics[${i}]`));
  });
  if (spec.minReplicas === 0 && !metrics.some((m) => isObject(m) && (m.type === 'Object' || m.type === 'External')))
    causes.push(
      forbidden(
        'spec.metrics',
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  return causes;
}

function rulesCauses(rules: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0)
    causes.push(invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > 3600)
    causes.push(invalid(`${path}.stabilizationWindowSeconds`, window, 'must be less than or equal to 3600'));
  if (isSet(rules.selectPolicy) && !['Disabled', 'Max', 'Min'].includes(str(rules.selectPolicy)))
    causes.push(notSupported(`${path}.selectPolicy`, rules.selectPolicy, ['Disabled', 'Max', 'Min']));
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) causes.push(required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    if (!isObject(p)) return;
    const at = `${path}.policies[${i}]`;
    if (p.type !== 'Pods' && p.type !== 'Percent')
      causes.push(notSupported(`${at}.type`, str(p.type), ['Percent', 'Pods']));
    const value = typeof p.value === 'number' ? p.value : 0;
    if (value <= 0) causes.push(invalid(`${at}.value`, value, 'must be greater than zero'));
    const period = typeof p.periodSeconds === 'number' ? p.periodSeconds : 0;
    if (period <= 0) causes.push(invalid(`${at}.periodSeconds`, period, 'must be greater than zero'));
    if (period > 1800) causes.push(invalid(`${at}.periodSeconds`, period, 'must be less than or equal to 1800'));
  });
  const tolerance = quantityOf(rules.tolerance);
  if (tolerance && tolerance.nanos < 0n)
    causes.push(invalid(`${path}.tolerance`, quantityString(tolerance), 'must be greater than or equal to 0'));
  return causes;
}

function behaviorCauses(spec: JsonObject): FieldCause[] {
  const behavior = spec.behavior;
  if (!isObject(behavior)) return [];
  const causes: FieldCause[] = [];
  for (const key of ['scaleUp', 'scaleDown']) {
    const rules = behavior[key];
    if (isObject(rules)) causes.push(...rulesCauses(rules, `spec.behavior.${key}`));
  }
  return causes;
}
