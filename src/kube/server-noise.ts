// What the API server adds to an object that says nothing about what was applied: identity and
// bookkeeping fields that differ on every run (uid, resourceVersion, timestamps, managedFields) and
// values it allocates at random (a Service's cluster IPs and node ports). `render` golden files
// and `diff` compare objects with these removed, so that only what a Flow or a commit decided shows.

import type { KubeObject } from './types.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const METADATA_NOISE = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
] as const;

/** A deep copy of `obj` without server-set noise; the input is not changed. */
export function withoutServerNoise(obj: KubeObject): KubeObject {
  const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
  const meta = copy.metadata;
  for (const key of METADATA_NOISE) delete meta[key];
  if (meta.ownerReferences)
    meta.ownerReferences = meta.ownerReferences.map(({ uid: _uid, ...rest }) => rest) as typeof meta.ownerReferences;
  if (copy.apiVersion === 'v1' && copy.kind === 'Service') withoutAllocations(copy);
  return copy;
}

/** Cluster IPs and node ports are allocated at random by the server (as kube-apiserver does). */
function withoutAllocations(service: KubeObject): void {
  const spec = service.spec as Record<string, Json> | undefined;
  if (!spec) return;
  delete spec.clusterIP;
  delete spec.clusterIPs;
  if (Array.isArray(spec.ports))
    for (const port of spec.ports) if (port && typeof port === 'object' && !Array.isArray(port)) delete port.nodePort;
}

/** Conditions without lastTransitionTime, the one field of theirs that changes from run to run. */
export function withoutTransitionTimes(conditions: unknown): unknown {
  if (!Array.isArray(conditions)) return conditions;
  return conditions.map((c: unknown) => {
    if (!c || typeof c !== 'object') return c;
    const { lastTransitionTime: _t, lastUpdateTime: _u, lastHeartbeatTime: _h, ...rest } = c as Record<string, unknown>;
    return rest;
  });
}
