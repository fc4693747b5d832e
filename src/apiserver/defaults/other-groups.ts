import type { JsonObject } from '../registry/types.js';
import { applyRows, existingAt, existingObject, objectAt, objectsIn } from './fields.js';

// SetDefaults_* of the served kinds outside core/apps/batch, and LimitRange's (k8s.io/kubernetes
// pkg/apis/*/v*/defaults.go, v1.34).

/** autoscaling/v2 SetDefaults_HorizontalPodAutoscaler: one replica at least, 80 % CPU when no metric is given. */
export function defaultHorizontalPodAutoscaler(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  if (spec.minReplicas == null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ];
  }
  defaultHpaBehavior(spec);
}

/**
 * SetDefaults_HorizontalPodAutoscalerBehavior: a given behavior gets both rules, each field it leaves
 * unset from the defaults (GenerateHPAScaleUpRules, GenerateHPAScaleDownRules). A policies list given
 * empty is kept (copyHPAScalingRules copies a non-nil slice), and validation refuses it.
 */
function defaultHpaBehavior(spec: JsonObject): void {
  const behavior = existingObject(spec, 'behavior');
  if (!behavior) return;
  const rules = (key: string, defaults: JsonObject): void => {
    const from = existingObject(behavior, key) ?? {};
    const to: JsonObject = { ...defaults };
    for (const f of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance'])
      if (from[f] !== undefined && from[f] !== null) to[f] = from[f];
    behavior[key] = to;
  };
  rules('scaleUp', {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  });
  rules('scaleDown', { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
}

/**
 * The HPA strategy's dropDisabledFields: a scaling rule's tolerance belongs to HPAConfigurableTolerance,
 * off by default in v1.34, and is dropped unless the stored HPA has one. After defaulting, as upstream
 * decodes (and defaults) before the strategy prepares the object.
 */
export function dropDisabledHpaFields(obj: JsonObject, old: JsonObject | undefined): void {
  const rulesOf = (o: JsonObject | undefined): JsonObject[] =>
    ['scaleUp', 'scaleDown'].map((k) => existingAt(o, 'spec', 'behavior', k)).filter((r) => r !== undefined);
  if (rulesOf(old).some((r) => r.tolerance != null)) return;
  for (const r of rulesOf(obj)) delete r.tolerance;
}

/** autoscaling/v1 SetDefaults_HorizontalPodAutoscaler: one replica at least (no CPU target is defaulted in v1). */
export function defaultHorizontalPodAutoscalerV1(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  if (spec.minReplicas == null) spec.minReplicas = 1;
  // Stored as autoscaling/v2, whose SetDefaults_HorizontalPodAutoscaler gives an HPA without metrics a
  // CPU utilization target of 80 %: a v1 object reads back with it unless its metrics annotation
  // carries others.
  const metrics = existingAt(obj, 'metadata', 'annotations')?.['autoscaling.alpha.kubernetes.io/metrics'];
  if (spec.targetCPUUtilizationPercentage == null && metrics == null) spec.targetCPUUtilizationPercentage = 80;
}

/** flowcontrol/v1 SetDefaults_FlowSchemaSpec. */
export function defaultFlowSchema(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
}

/**
 * flowcontrol/v1 SetDefaults_{Limited,Exempt}PriorityLevelConfiguration and
 * SetDefaults_QueuingConfiguration.
 */
export function defaultPriorityLevelConfiguration(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  const limited = existingObject(spec, 'limited');
  if (limited) {
    limited.nominalConcurrencyShares ??= 30;
    limited.lendablePercent ??= 0;
    const queuing = existingAt(limited, 'limitResponse', 'queuing');
    if (queuing) {
      if (!queuing.handSize) queuing.handSize = 8;
      if (!queuing.queues) queuing.queues = 64;
      if (!queuing.queueLengthLimit) queuing.queueLengthLimit = 50;
    }
  }
  const exempt = existingObject(spec, 'exempt');
  if (exempt) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}

/** networking/v1 SetDefaults_NetworkPolicy: Ingress always, Egress when egress rules are given. */
export function defaultNetworkPolicy(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  if (Array.isArray(spec.policyTypes) && spec.policyTypes.length) return;
  spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

/** scheduling/v1 SetDefaults_PriorityClass. */
export function defaultPriorityClass(obj: JsonObject): void {
  applyRows(obj, [['preemptionPolicy', 'PreemptLowerPriority', 'nil']]);
}

/**
 * core/v1 SetDefaults_LimitRangeItem: for a Container item the default limit falls back to max,
 * and the default request to the default limit, then to min.
 */
export function defaultLimitRange(obj: JsonObject): void {
  for (const item of objectsIn(objectAt(obj, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const fallback = (into: string, from: string): void => {
      const source = item[from];
      if (!source || typeof source !== 'object' || Array.isArray(source)) return;
      const target = objectAt(item, into);
      for (const [k, v] of Object.entries(source)) if (target[k] === undefined) target[k] = v;
    };
    fallback('default', 'max');
    fallback('defaultRequest', 'default');
    fallback('defaultRequest', 'min');
    for (const k of ['default', 'defaultRequest']) {
      const v = item[k];
      if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) delete item[k];
    }
  }
}

/** apiextensions/v1 SetDefaults_CustomResourceDefinitionSpec: conversion None, singular and listKind from kind. */
export function defaultCustomResourceDefinition(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  if (spec.conversion == null) spec.conversion = { strategy: 'None' };
  const names = objectAt(spec, 'names');
  if (typeof names.kind === 'string' && names.kind) {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
}

/**
 * resource.k8s.io/v1 SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest: ExactCount, and
 * one device for it, for a claim's requests and a claim template's.
 */
export function defaultResourceClaim(obj: JsonObject): void {
  defaultDeviceRequests(objectAt(obj, 'spec'));
}

export function defaultResourceClaimTemplate(obj: JsonObject): void {
  defaultDeviceRequests(objectAt(objectAt(obj, 'spec'), 'spec'));
}

function defaultDeviceRequests(claimSpec: JsonObject): void {
  for (const r of deviceRequests(existingObject(claimSpec, 'devices'))) {
    if (!r.allocationMode) r.allocationMode = 'ExactCount';
    if (r.allocationMode === 'ExactCount' && !r.count) r.count = 1;
  }
}

/** A claim's exact requests and first-available subrequests: the two shapes a device is asked for in. */
function deviceRequests(devices: JsonObject | undefined): JsonObject[] {
  return (devices ? objectsIn(devices, 'requests') : []).flatMap((r) => [
    ...[existingObject(r, 'exactly')].filter((e) => e !== undefined),
    ...objectsIn(r, 'firstAvailable'),
  ]);
}

/**
 * The DRA claim strategies' dropDisabledDRAResourceClaimConsumableCapacityFields: a request's capacity
 * belongs to DRAConsumableCapacity, off by default in v1.34, and is dropped unless the stored claim (or
 * claim template) uses it. After defaulting, as upstream decodes before the strategy prepares.
 */
export function dropDisabledClaimFields(kind: string, obj: JsonObject, old: JsonObject | undefined): void {
  const path = kind === 'ResourceClaimTemplate' ? ['spec', 'spec', 'devices'] : ['spec', 'devices'];
  const requestsOf = (o: JsonObject | undefined): JsonObject[] => deviceRequests(existingAt(o, ...path));
  if (requestsOf(old).some((r) => r.capacity != null)) return;
  for (const r of requestsOf(obj)) delete r.capacity;
}
