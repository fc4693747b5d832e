// The `scale` subresource of the built-in workloads (Deployment, StatefulSet, ReplicaSet,
// ReplicationController): an autoscaling/v1 Scale view of spec.replicas, as kube-apiserver serves
// it (pkg/registry/apps/deployment/storage ScaleREST), so `kubectl scale` and HPA-style clients work.
// CRDs with subresources.scale are not served yet.

import type { IncomingMessage } from 'node:http';
import type { ObjectStore, WriteOptions } from '../objects/object-store.js';
import { metadataOf } from '../objects/meta.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { labelSelectorFromMatch, labelSelectorToString } from '../selectors/index.js';
import { mediaType, readBody } from './body.js';
import { errors } from './status.js';

const SCALABLE = new Set(['apps/deployments', 'apps/statefulsets', 'apps/replicasets', '/replicationcontrollers']);

export const hasScale = (t: ResourceType): boolean => !t.custom && SCALABLE.has(`${t.group}/${t.plural}`);

function selectorOf(t: ResourceType, spec: JsonObject): string {
  const sel = spec.selector;
  if (!sel || typeof sel !== 'object') return '';
  // A ReplicationController's selector is a plain map; the others are metav1.LabelSelector.
  const match = t.plural === 'replicationcontrollers' ? { matchLabels: sel } : sel;
  return labelSelectorToString(labelSelectorFromMatch(match as Parameters<typeof labelSelectorFromMatch>[0]));
}

export function toScale(t: ResourceType, obj: JsonObject): JsonObject {
  const meta = metadataOf(obj);
  const spec = (obj.spec ?? {}) as JsonObject;
  const status = (obj.status ?? {}) as JsonObject;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp } as JsonObject,
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 1 },
    status: { replicas: typeof status.replicas === 'number' ? status.replicas : 0, selector: selectorOf(t, spec) },
  };
}

function replicasOf(scale: JsonValue): number {
  const r = ((scale as JsonObject | null)?.spec as JsonObject | undefined)?.replicas;
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 0) throw errors.unprocessable(`Scale.autoscaling "spec.replicas": Invalid value: ${JSON.stringify(r)}: must be greater than or equal to 0`);
  return r;
}

/** GET, PUT and PATCH (merge, strategic — the same for a Scale — and JSON patch) of .../scale. */
export async function answerScale(objects: ObjectStore, t: ResourceType, namespace: string | undefined, name: string, req: IncomingMessage, opts: WriteOptions): Promise<JsonObject> {
  const method = req.method ?? 'GET';
  if (method === 'GET') return toScale(t, objects.get(t, namespace, name));
  if (method !== 'PUT' && method !== 'PATCH') throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  const body = (await readBody(req)).toString('utf8');
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(body) as JsonValue;
  } catch {
    throw errors.badRequest('the Scale body could not be decoded as JSON');
  }
  const current = toScale(t, objects.get(t, namespace, name));
  const type = mediaType(req);
  const next = method === 'PUT' ? parsed : type === 'application/json-patch+json' ? jsonPatch(current, parsed) : mergePatch(current, parsed);
  const replicas = replicasOf(next);
  const updated = objects.patch(t, namespace, name, (obj) => ({ ...obj, spec: { ...((obj.spec ?? {}) as JsonObject), replicas } }), opts);
  return toScale(t, updated);
}
