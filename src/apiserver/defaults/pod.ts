import type { Operation } from '../objects/object-store.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { applyRows, existingObject, objectAt, objectsIn, type DefaultRow } from './fields.js';
import { defaultPodSpec } from './pod-spec.js';
import { quantityNanos } from './quantity.js';

/** SetDefaults_Pod (pkg/apis/core/v1/defaults.go): what only a Pod gets, not a pod template. */
const POD_ONLY: readonly DefaultRow[] = [['enableServiceLinks', true, 'nil']];

/**
 * A Pod: the PodSpec defaults, SetDefaults_Pod (requests default to limits; with hostNetwork every
 * container port is also a host port), and on create podStrategy.PrepareForCreate
 * (pkg/registry/core/pod/strategy.go): status is phase Pending with the pod's QoS class.
 */
export function defaultPod(obj: JsonObject, op: Operation): void {
  const spec = objectAt(obj, 'spec');
  defaultPodSpec(spec);
  applyRows(spec, POD_ONLY);
  for (const key of ['containers', 'initContainers']) {
    for (const c of objectsIn(spec, key)) {
      requestsFromLimits(c);
      if (spec.hostNetwork === true)
        for (const p of objectsIn(c, 'ports')) if (!p.hostPort) p.hostPort = p.containerPort ?? 0;
    }
  }
  if (op === 'CREATE') obj.status = { phase: 'Pending', qosClass: qosClass(spec) };
}

function requestsFromLimits(c: JsonObject): void {
  const resources = existingObject(c, 'resources');
  const limits = resources && existingObject(resources, 'limits');
  if (!limits) return;
  const requests = objectAt(resources, 'requests');
  for (const [name, value] of Object.entries(limits)) if (!(name in requests)) requests[name] = value;
}

const QOS_RESOURCES = ['cpu', 'memory'];

/**
 * qos.GetPodQOS (pkg/apis/core/helper/qos): BestEffort without cpu/memory requests or limits;
 * Guaranteed when every container limits both and the summed requests equal the summed limits;
 * Burstable otherwise. (Pod-level resources, alpha in 1.32, are not served.)
 */
export function qosClass(spec: JsonObject): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const c of [...objectsIn(spec, 'containers'), ...objectsIn(spec, 'initContainers')]) {
    const resources = existingObject(c, 'resources') ?? {};
    add(requests, existingObject(resources, 'requests'));
    const found = add(limits, existingObject(resources, 'limits'));
    if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** Adds the positive cpu/memory quantities of `list` into `into`; answers which it found. */
function add(into: Map<string, bigint>, list: JsonObject | undefined): Set<string> {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(list ?? {})) {
    if (!QOS_RESOURCES.includes(name)) continue;
    const n = quantityOf(value);
    if (n === undefined || n <= 0n) continue;
    found.add(name);
    into.set(name, (into.get(name) ?? 0n) + n);
  }
  return found;
}

function quantityOf(v: JsonValue): bigint | undefined {
  if (typeof v === 'number') return quantityNanos(String(v));
  return typeof v === 'string' ? quantityNanos(v) : undefined;
}
