import { metadataOf } from '../../objects/meta.js';
import type { JsonObject } from '../../registry/types.js';
import { admissionForbidden } from './forbidden.js';
import { isMap, maps, mapAt, type Lookup } from './lookup.js';
import { containerResources, podResources, resourceList, type Resources } from './pod-resources.js';
import { canonicalQuantity, quantityString, type Quantity } from '../../defaults/quantity-string.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * LimitRanger (plugin/pkg/admission/limitranger/admission.go): a new Pod's containers get the
 * namespace's LimitRanges' `Container` default limits and defaultRequests they do not state, noted
 * in the `kubernetes.io/limit-ranger` annotation (`LimitRanger plugin set: cpu, memory request for
 * container c; …`); then min, max and maxLimitRequestRatio of `Container` and `Pod` limits are
 * enforced on Pods, and of `PersistentVolumeClaim` limits on claims' storage requests, in
 * upstream's words. Pod updates are not checked (containers are immutable), nor objects being
 * deleted. Several failures are joined as utilerrors.NewAggregate joins them (`[a, b]`); upstream
 * walks each limit's resources in Go map order, here in the LimitRange's own order.
 */
const ANNOTATION = 'kubernetes.io/limit-ranger';

export class LimitRangerPlugin implements BuiltinPlugin {
  readonly name = 'LimitRanger';

  constructor(private readonly lookup: Lookup) {}

  mutate(a: PluginAttributes): void {
    if (!this.handles(a) || a.t.kind !== 'Pod') return;
    for (const lr of this.limitRanges(a.namespace)) mergeDefaults(a.object, lr);
  }

  validate(a: PluginAttributes): void {
    if (!this.handles(a)) return;
    for (const lr of this.limitRanges(a.namespace)) {
      const errs = a.t.kind === 'Pod' ? validatePod(lr, a.object) : validateClaim(lr, a.object);
      if (errs.length) throw admissionForbidden(a, errs.length === 1 ? String(errs[0]) : `[${errs.join(', ')}]`);
    }
  }

  private handles(a: PluginAttributes): boolean {
    if (a.subresource || a.t.group || (a.t.kind !== 'Pod' && a.t.kind !== 'PersistentVolumeClaim')) return false;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return false;
    if (a.t.kind === 'Pod' && a.operation === 'UPDATE') return false;
    return !(a.oldObject && metadataOf(a.oldObject).deletionTimestamp != null);
  }

  private limitRanges(namespace: string): JsonObject[] {
    return this.lookup.list(this.lookup.type('', 'v1', 'limitranges'), namespace);
  }
}

function limitsOf(lr: JsonObject): JsonObject[] {
  return maps(mapAt(lr, 'spec').limits);
}

function mergeDefaults(pod: JsonObject, lr: JsonObject): void {
  const requests: JsonObject = {};
  const limits: JsonObject = {};
  for (const l of limitsOf(lr)) {
    if (l.type !== 'Container') continue;
    for (const [k, v] of Object.entries(mapAt(l, 'defaultRequest'))) requests[k] = canonicalQuantity(String(v));
    for (const [k, v] of Object.entries(mapAt(l, 'default'))) limits[k] = canonicalQuantity(String(v));
  }
  const notes: string[] = [];
  const spec = mapAt(pod, 'spec');
  const merge = (c: JsonObject, prefix: string): void => {
    const resources = isMap(c.resources) ? c.resources : (c.resources = {});
    const setLimits = fill(resources, 'limits', limits);
    const setRequests = fill(resources, 'requests', requests);
    const name = String(c.name ?? '');
    if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${name}`);
    if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${name}`);
  };
  for (const c of maps(spec.containers)) merge(c, 'container');
  for (const c of maps(spec.initContainers)) merge(c, 'init container');
  if (!notes.length) return;
  const meta = metadataOf(pod);
  const annotations = isMap(meta.annotations) ? meta.annotations : (meta.annotations = {});
  annotations[ANNOTATION] = `LimitRanger plugin set: ${notes.join('; ')}`;
}

/** Adds the defaults a container lacks; returns the names added. */
function fill(resources: JsonObject, which: 'requests' | 'limits', defaults: JsonObject): string[] {
  const keys = Object.keys(defaults);
  if (!keys.length) return [];
  const own = isMap(resources[which]) ? resources[which] : (resources[which] = {});
  const added = keys.filter((k) => own[k] === undefined);
  for (const k of added) own[k] = defaults[k] ?? null;
  return added;
}

type Check = (
  type: string,
  name: string,
  enforced: Quantity,
  request: Resources,
  limit: Resources,
) => string | undefined;

const show = quantityString;

/** Value() vs MilliValue(): nano units compare both the way upstream's common precision does. */
const minConstraint: Check = (type, name, enforced, request, limit) => {
  const req = request.get(name);
  const lim = limit.get(name);
  const head = `minimum ${name} usage per ${type} is ${show(enforced)}`;
  if (!req) return `${head}.  No request is specified`;
  if (req.nanos < enforced.nanos) return `${head}, but request is ${show(req)}`;
  if (lim && lim.nanos < enforced.nanos) return `${head}, but limit is ${show(lim)}`;
  return undefined;
};

const maxConstraint: Check = (type, name, enforced, request, limit) => {
  const req = request.get(name);
  const lim = limit.get(name);
  const head = `maximum ${name} usage per ${type} is ${show(enforced)}`;
  if (!lim) return `${head}.  No limit is specified`;
  if (lim.nanos > enforced.nanos) return `${head}, but limit is ${show(lim)}`;
  if (req && req.nanos > enforced.nanos) return `${head}, but request is ${show(req)}`;
  return undefined;
};

const maxRequestConstraint: Check = (type, name, enforced, request) => {
  const req = request.get(name);
  const head = `maximum ${name} usage per ${type} is ${show(enforced)}`;
  if (!req) return `${head}.  No request is specified`;
  if (req.nanos > enforced.nanos) return `${head}, but request is ${show(req)}`;
  return undefined;
};

const ratioConstraint: Check = (type, name, enforced, request, limit) => {
  const req = request.get(name);
  const lim = limit.get(name);
  const head = `${name} max limit to request ratio per ${type} is ${show(enforced)}`;
  if (!req || req.nanos === 0n) return `${head}, but no request is specified or request is 0`;
  if (!lim || lim.nanos === 0n) return `${head}, but no limit is specified or limit is 0`;
  const ratio = Number(lim.nanos) / Number(req.nanos);
  // Go's %f: six decimals.
  if (ratio * 1e9 > Number(enforced.nanos)) return `${head}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
};

function run(errs: string[], limit: JsonObject, type: string, request: Resources, lim: Resources): void {
  const pass = (field: string, check: Check): void => {
    for (const [name, q] of resourceList(mapAt(limit, field))) {
      const e = check(type, name, q, request, lim);
      if (e) errs.push(e);
    }
  };
  pass('min', minConstraint);
  pass('max', maxConstraint);
  pass('maxLimitRequestRatio', ratioConstraint);
}

function validatePod(lr: JsonObject, pod: JsonObject): string[] {
  const errs: string[] = [];
  const spec = mapAt(pod, 'spec');
  for (const l of limitsOf(lr)) {
    if (l.type === 'Container') {
      for (const c of [...maps(spec.containers), ...maps(spec.initContainers)]) {
        run(errs, l, 'Container', containerResources(c, 'requests'), containerResources(c, 'limits'));
      }
    }
    if (l.type === 'Pod') run(errs, l, 'Pod', podResources(pod, 'requests'), podResources(pod, 'limits'));
  }
  return errs;
}

function validateClaim(lr: JsonObject, pvc: JsonObject): string[] {
  const errs: string[] = [];
  const resources = mapAt(mapAt(pvc, 'spec'), 'resources');
  const requests = resourceList(isMap(resources.requests) ? resources.requests : undefined);
  for (const l of limitsOf(lr)) {
    if (l.type !== 'PersistentVolumeClaim') continue;
    for (const [name, q] of resourceList(mapAt(l, 'min'))) {
      const e = minConstraint('PersistentVolumeClaim', name, q, requests, new Map());
      if (e) errs.push(e);
    }
    for (const [name, q] of resourceList(mapAt(l, 'max'))) {
      const e = maxRequestConstraint('PersistentVolumeClaim', name, q, requests, new Map());
      if (e) errs.push(e);
    }
  }
  return errs;
}
