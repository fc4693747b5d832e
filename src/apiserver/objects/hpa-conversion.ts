import type { JsonObject, JsonValue, StorageConversion } from '../registry/types.js';

/**
 * autoscaling/v1 HorizontalPodAutoscaler ↔ autoscaling/v2 (its storage version), as
 * k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go converts them: the CPU utilization target is
 * `targetCPUUtilizationPercentage` in v1 and a Resource metric in v2; what v1 has no field for
 * (other metrics, behavior, conditions, current metrics) rides in the `autoscaling.alpha.kubernetes.io/*`
 * annotations so a v1 read-modify-write keeps it. Those annotations carry the v2 JSON form here
 * (upstream writes the older v1 MetricSpec shape); they round-trip through this server either way.
 */
const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const ALPHA_KEYS = [METRICS, BEHAVIOR, CONDITIONS, CURRENT_METRICS];

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (o: JsonObject, key: string): JsonObject => (isObject(o[key]) ? o[key] : {});

function isCpuUtilization(m: JsonValue): boolean {
  if (!isObject(m) || m.type !== 'Resource') return false;
  const r = objectAt(m, 'resource');
  return r.name === 'cpu' && objectAt(r, 'target').type === 'Utilization';
}

function parseAnnotation(annotations: JsonObject, key: string): JsonValue | undefined {
  const text = annotations[key];
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined; // upstream ignores an annotation it cannot read as well
  }
}

function withAnnotations(meta: JsonObject, extra: Record<string, JsonValue | undefined>): JsonObject {
  const annotations: JsonObject = { ...objectAt(meta, 'annotations') };
  for (const k of ALPHA_KEYS) delete annotations[k];
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) annotations[k] = JSON.stringify(v);
  const out: JsonObject = { ...meta };
  if (Object.keys(annotations).length) out.annotations = annotations;
  else delete out.annotations;
  return out;
}

export function hpaV1FromV2(v2: JsonObject): JsonObject {
  const spec = objectAt(v2, 'spec');
  const status = objectAt(v2, 'status');
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : [];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => !isCpuUtilization(m));
  const { metrics: _m, behavior, ...v1Spec } = spec;
  if (isObject(cpu))
    v1Spec.targetCPUUtilizationPercentage = objectAt(objectAt(cpu, 'resource'), 'target').averageUtilization ?? null;
  const current = Array.isArray(status.currentMetrics) ? status.currentMetrics : [];
  const currentCpu = current.find(
    (m) => isObject(m) && m.type === 'Resource' && objectAt(m, 'resource').name === 'cpu',
  );
  const { currentMetrics: _c, conditions, ...v1Status } = status;
  if (isObject(currentCpu)) {
    const utilization = objectAt(objectAt(currentCpu, 'resource'), 'current').averageUtilization;
    if (utilization !== undefined) v1Status.currentCPUUtilizationPercentage = utilization;
  }
  const out: JsonObject = {
    ...v2,
    apiVersion: 'autoscaling/v1',
    metadata: withAnnotations(objectAt(v2, 'metadata'), {
      [METRICS]: others.length ? others : undefined,
      [BEHAVIOR]: behavior,
      [CONDITIONS]: Array.isArray(conditions) && conditions.length ? conditions : undefined,
      [CURRENT_METRICS]: current.length ? current : undefined,
    }),
    spec: v1Spec,
  };
  if (v2.status !== undefined) out.status = v1Status;
  return out;
}

export function hpaV2FromV1(v1: JsonObject): JsonObject {
  const meta = objectAt(v1, 'metadata');
  const annotations = objectAt(meta, 'annotations');
  const { targetCPUUtilizationPercentage: target, ...spec } = objectAt(v1, 'spec');
  const others = parseAnnotation(annotations, METRICS);
  const metrics: JsonValue[] = Array.isArray(others) ? [...others] : [];
  if (typeof target === 'number') {
    metrics.unshift({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } },
    });
  }
  if (metrics.length) spec.metrics = metrics;
  const behavior = parseAnnotation(annotations, BEHAVIOR);
  if (isObject(behavior)) spec.behavior = behavior;
  const out: JsonObject = { ...v1, apiVersion: 'autoscaling/v2', metadata: withAnnotations(meta, {}), spec };
  if (v1.status !== undefined) {
    const { currentCPUUtilizationPercentage: _u, ...status } = objectAt(v1, 'status');
    const conditions = parseAnnotation(annotations, CONDITIONS);
    const current = parseAnnotation(annotations, CURRENT_METRICS);
    if (Array.isArray(conditions)) status.conditions = conditions;
    if (Array.isArray(current)) status.currentMetrics = current;
    out.status = status;
  }
  return out;
}

export const HPA_V1_STORAGE: StorageConversion = {
  group: 'autoscaling',
  toStorage: hpaV2FromV1,
  fromStorage: hpaV1FromV2,
};
