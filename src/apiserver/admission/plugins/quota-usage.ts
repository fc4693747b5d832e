import type { JsonObject, JsonValue, ResourceType } from '../../registry/types.js';
import { isMap, maps, mapAt } from './lookup.js';
import { containerResources, podResources, resourceList, type Resources } from './pod-resources.js';
import type { PluginAttributes } from './types.js';

/**
 * The quota evaluators (pkg/quota/v1/evaluator/core: pods.go, services.go,
 * persistent_volume_claims.go; k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go for every other
 * kind's `count/<resource>[.<group>]`): what an object uses, which quota resources concern it,
 * whether a write is charged at all, and a quota's scopes. Not done: scopeSelector's
 * CrossNamespacePodAffinity and VolumeAttributesClass scopes (they match nothing here), DRA claims.
 */
const ONE = { nanos: 1_000_000_000n, format: 'DecimalSI' as const };
const POD_RESOURCES = new Set([
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);
const LEGACY_COUNTS = new Set(['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']);
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
export const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** Kinds kube-apiserver's quota ignores (pkg/quota/v1/install/registry.go, ignoredResources). */
const IGNORED = new Set([
  '/bindings',
  '/componentstatuses',
  '/events',
  'events.k8s.io/events',
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
]);

export function ignored(t: ResourceType): boolean {
  return IGNORED.has(`${t.group}/${t.plural}`);
}

export function countName(t: ResourceType): string {
  return t.group ? `count/${t.plural}.${t.group}` : `count/${t.plural}`;
}

/** Evaluator.Handles: pods and plain counts on create; Services and claims on update too. */
export function handles(a: PluginAttributes): boolean {
  if (a.subresource) return false;
  if (a.operation === 'CREATE') return true;
  if (a.operation !== 'UPDATE' || a.t.group) return false;
  if (a.t.kind === 'Pod') return a.oldObject !== undefined && terminating(a.oldObject) !== terminating(a.object);
  return a.t.kind === 'Service' || a.t.kind === 'PersistentVolumeClaim';
}

/** Evaluator.MatchingResources: which of a quota's resource names this kind's evaluator counts. */
export function matchingResources(t: ResourceType, names: string[]): string[] {
  if (!t.group && t.kind === 'Pod') {
    return names.filter((n) => POD_RESOURCES.has(n) || n.startsWith('requests.hugepages-') || extendedRequest(n));
  }
  if (!t.group && t.kind === 'Service') {
    const counted = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'];
    return names.filter((n) => counted.includes(n));
  }
  if (!t.group && t.kind === 'PersistentVolumeClaim') {
    return names.filter(
      (n) =>
        ['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage'].includes(n) ||
        n.endsWith(`${STORAGE_CLASS_SUFFIX}requests.storage`) ||
        n.endsWith(`${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`),
    );
  }
  return names.filter((n) => n === countName(t) || (!t.group && LEGACY_COUNTS.has(n) && n === t.plural));
}

function extendedRequest(n: string): boolean {
  if (!n.startsWith('requests.')) return false;
  const r = n.slice('requests.'.length);
  return r.includes('/') && !r.startsWith('kubernetes.io/') && !r.includes('.kubernetes.io/');
}

/** Evaluator.Usage. */
export function usage(t: ResourceType, obj: JsonObject): Resources {
  const out: Resources = new Map([[countName(t), ONE]]);
  if (!t.group && t.kind === 'Pod') return podUsage(obj, out);
  if (!t.group && t.kind === 'Service') return serviceUsage(obj, out);
  if (!t.group && t.kind === 'PersistentVolumeClaim') return claimUsage(obj, out);
  if (!t.group && LEGACY_COUNTS.has(t.plural)) out.set(t.plural, ONE);
  return out;
}

function podUsage(pod: JsonObject, out: Resources): Resources {
  const status = mapAt(pod, 'status');
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return out;
  return new Map([...out, ...computeUsage(podResources(pod, 'requests'), podResources(pod, 'limits'))]);
}

/** podComputeUsageHelper: pods 1, cpu and memory as requests.*, limits.*, hugepages and extended requests. */
export function computeUsage(requests: Resources, limits: Resources): Resources {
  const out: Resources = new Map([['pods', ONE]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    const lim = limits.get(r);
    if (req && r !== 'ephemeral-storage') out.set(r, req);
    if (req) out.set(`requests.${r}`, req);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith('hugepages-') || (r.includes('/') && !r.includes('kubernetes.io/'))) out.set(`requests.${r}`, q);
  }
  return out;
}

export function containerUsageNames(c: JsonObject): Set<string> {
  return new Set(computeUsage(containerResources(c, 'requests'), containerResources(c, 'limits')).keys());
}

function serviceUsage(svc: JsonObject, out: Resources): Resources {
  out.set('services', ONE);
  const spec = mapAt(svc, 'spec');
  const ports = maps(spec.ports).length;
  const n = (k: number) => ({ nanos: BigInt(k) * ONE.nanos, format: 'DecimalSI' as const });
  if (spec.type === 'LoadBalancer') {
    out.set('services.loadbalancers', ONE);
    out.set('services.nodeports', n(spec.allocateLoadBalancerNodePorts === false ? 0 : ports));
  } else if (spec.type === 'NodePort') {
    out.set('services.nodeports', n(ports));
  } else {
    out.set('services.nodeports', n(0));
    out.set('services.loadbalancers', n(0));
  }
  return out;
}

function claimUsage(pvc: JsonObject, out: Resources): Resources {
  out.set('persistentvolumeclaims', ONE);
  const spec = mapAt(pvc, 'spec');
  const requests = mapAt(spec, 'resources').requests;
  const storage = resourceList(isMap(requests) ? requests : undefined).get('storage');
  const cls = typeof spec.storageClassName === 'string' ? spec.storageClassName : '';
  if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE);
  if (storage) {
    out.set('requests.storage', storage);
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return out;
}

export function terminating(pod: JsonObject): boolean {
  const d = mapAt(pod, 'spec').activeDeadlineSeconds;
  return typeof d === 'number' && d >= 0;
}

function bestEffort(pod: JsonObject): boolean {
  const spec = mapAt(pod, 'spec');
  return [...maps(spec.containers), ...maps(spec.initContainers)].every((c) => {
    const r = mapAt(c, 'resources');
    const set = (m: JsonValue | undefined) => isMap(m) && (m.cpu !== undefined || m.memory !== undefined);
    return !set(r.requests) && !set(r.limits);
  });
}

interface ScopeSelector {
  scopeName: string;
  operator: string;
  values: string[];
}

/** getScopeSelectorsFromQuota: spec.scopes as Exists selectors, then spec.scopeSelector's expressions. */
export function scopeSelectors(quota: JsonObject): ScopeSelector[] {
  const spec = mapAt(quota, 'spec');
  const out: ScopeSelector[] = [];
  const scopes = Array.isArray(spec.scopes) ? spec.scopes : [];
  for (const s of scopes) out.push({ scopeName: String(s), operator: 'Exists', values: [] });
  for (const e of maps(mapAt(spec, 'scopeSelector').matchExpressions)) {
    const values = Array.isArray(e.values) ? e.values.map(String) : [];
    out.push({ scopeName: String(e.scopeName), operator: String(e.operator), values });
  }
  return out;
}

/** podMatchesScopeFunc; every other kind matches no scope (MatchesNoScopeFunc). */
export function matchesScope(t: ResourceType, s: ScopeSelector, obj: JsonObject): boolean {
  if (t.group || t.kind !== 'Pod') return false;
  switch (s.scopeName) {
    case 'Terminating':
      return terminating(obj);
    case 'NotTerminating':
      return !terminating(obj);
    case 'BestEffort':
      return bestEffort(obj);
    case 'NotBestEffort':
      return !bestEffort(obj);
    case 'PriorityClass': {
      // podMatchesSelector: a label set {PriorityClass: the pod's class}, present even when empty.
      const raw = mapAt(obj, 'spec').priorityClassName;
      const cls = typeof raw === 'string' ? raw : '';
      if (s.operator === 'Exists') return true;
      if (s.operator === 'In') return s.values.includes(cls);
      if (s.operator === 'NotIn') return !s.values.includes(cls);
      return false;
    }
    default:
      return false;
  }
}
