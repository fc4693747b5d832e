import type { JsonObject } from '../../registry/types.js';
import { isMap, maps, mapAt } from './lookup.js';
import { parseQuantity, type Quantity } from '../../defaults/quantity-string.js';

/** A ResourceList read into quantities (invalid entries are left to validation). */
export type Resources = Map<string, Quantity>;

export function resourceList(v: JsonObject | undefined): Resources {
  const out: Resources = new Map();
  for (const [k, text] of Object.entries(v ?? {})) {
    const q = typeof text === 'string' || typeof text === 'number' ? parseQuantity(String(text)) : undefined;
    if (q) out.set(k, q);
  }
  return out;
}

export function containerResources(c: JsonObject, which: 'requests' | 'limits'): Resources {
  const r = mapAt(c, 'resources');
  return resourceList(isMap(r[which]) ? r[which] : undefined);
}

function addInto(into: Resources, add: Resources): void {
  for (const [k, q] of add) {
    const had = into.get(k);
    // Quantity.Add: the receiver's format, or the addend's when the receiver is zero.
    const format = had && had.nanos !== 0n ? had.format : q.format;
    into.set(k, { nanos: (had?.nanos ?? 0n) + q.nanos, format });
  }
}

function maxInto(into: Resources, other: Resources): void {
  for (const [k, q] of other) {
    const had = into.get(k);
    if (!had || q.nanos > had.nanos) into.set(k, { ...q });
  }
}

/**
 * resourcehelper.PodRequests / PodLimits (k8s.io/component-helpers/resource/helpers.go), without
 * in-place resize status: the containers' sum; each regular init container's need beside the
 * sidecars started before it, whichever is larger; sidecars (restartPolicy Always) count in full;
 * plus the Pod's overhead. Pod-level resources, when set, are the answer for what they name.
 */
export function podResources(pod: JsonObject, which: 'requests' | 'limits'): Resources {
  const spec = mapAt(pod, 'spec');
  const sum: Resources = new Map();
  for (const c of maps(spec.containers)) addInto(sum, containerResources(c, which));
  const sidecars: Resources = new Map();
  const initMax: Resources = new Map();
  for (const c of maps(spec.initContainers)) {
    const own = containerResources(c, which);
    if (c.restartPolicy === 'Always') {
      addInto(sum, own);
      addInto(sidecars, own);
      continue;
    }
    const need: Resources = new Map();
    addInto(need, own);
    addInto(need, sidecars);
    maxInto(initMax, need);
  }
  maxInto(sum, initMax);
  const podLevel = mapAt(spec, 'resources');
  if (isMap(podLevel[which])) for (const [k, q] of resourceList(podLevel[which])) sum.set(k, q);
  if (isMap(spec.overhead)) addInto(sum, resourceList(spec.overhead));
  return sum;
}
