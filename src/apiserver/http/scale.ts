// The `scale` subresource of the built-in workloads (Deployment, StatefulSet, ReplicaSet,
// ReplicationController) and of CRDs that declare `subresources.scale`: an autoscaling/v1 Scale
// view of the replicas, as kube-apiserver serves it (pkg/registry/apps/deployment/storage
// ScaleREST; apiextensions-apiserver's scale for CRDs, which reads the declared JSON paths), so
// `kubectl scale` and HPA-style clients work.

import type { IncomingMessage } from 'node:http';
import type { ObjectStore, WriteOptions } from '../objects/object-store.js';
import { metadataOf } from '../objects/meta.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { labelSelectorFromMatch, labelSelectorToString } from '../selectors/index.js';
import { mediaType, readBody } from './body.js';
import { decodeProtobufBody } from './protobuf-body.js';
import { isProtobufContentType } from '../protobuf/index.js';
import { checkJsonNesting } from './nesting.js';
import { errors } from './status.js';
import { negativeReplicas } from '../validation/replicas.js';

const SCALABLE = new Set(['apps/deployments', 'apps/statefulsets', 'apps/replicasets', '/replicationcontrollers']);

export const hasScale = (t: ResourceType): boolean =>
  t.custom ? t.scaleSubresource !== undefined : SCALABLE.has(`${t.group}/${t.plural}`);

interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

const BUILTIN_PATHS: ScalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };

/** `.spec.replicas` → ['spec', 'replicas'] (CRD validation allows only such simple paths). */
const segments = (path: string): string[] => path.replace(/^\./, '').split('.').filter(Boolean);

export function getPath(obj: JsonObject, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = obj;
  for (const s of segments(path))
    cur = cur && typeof cur === 'object' && !Array.isArray(cur) ? (cur as JsonObject)[s] : undefined;
  return cur;
}

function setPath(obj: JsonObject, path: string, value: JsonValue): JsonObject {
  const [head, ...rest] = segments(path);
  if (!head) return obj;
  if (!rest.length) return { ...obj, [head]: value };
  const child = obj[head];
  return {
    ...obj,
    [head]: setPath(
      child && typeof child === 'object' && !Array.isArray(child) ? (child as JsonObject) : {},
      `.${rest.join('.')}`,
      value,
    ),
  };
}

function selectorOf(t: ResourceType, spec: JsonObject): string {
  const sel = spec.selector;
  if (!sel || typeof sel !== 'object') return '';
  // A ReplicationController's selector is a plain map; the others are metav1.LabelSelector.
  const match = t.plural === 'replicationcontrollers' ? { matchLabels: sel } : sel;
  return labelSelectorToString(labelSelectorFromMatch(match as Parameters<typeof labelSelectorFromMatch>[0]));
}

export function toScale(t: ResourceType, obj: JsonObject): JsonObject {
  const meta = metadataOf(obj);
  const paths = t.scaleSubresource ?? BUILTIN_PATHS;
  const spec = (obj.spec ?? {}) as JsonObject;
  const want = getPath(obj, paths.specReplicasPath);
  const have = getPath(obj, paths.statusReplicasPath);
  const crdSelector = paths.labelSelectorPath ? getPath(obj, paths.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    } as JsonObject,
    // Built-in workloads default replicas to 1; a CRD without the field has 0.
    spec: { replicas: typeof want === 'number' ? want : t.custom ? 0 : 1 },
    // autoscaling/v1 ScaleStatus.selector is omitempty: a CRD whose selector path is empty has none.
    status: {
      replicas: typeof have === 'number' ? have : 0,
      ...scaleSelector(t.custom ? (typeof crdSelector === 'string' ? crdSelector : '') : selectorOf(t, spec)),
    },
  };
}

const SCALE_KIND = { group: 'autoscaling', kind: 'Scale' };

function scaleSelector(selector: string): { selector?: string } {
  return selector ? { selector } : {};
}

function replicasOf(scale: JsonValue, name: string): number {
  const r = ((scale as JsonObject | null)?.spec as JsonObject | undefined)?.replicas;
  const negative = negativeReplicas(r);
  if (negative) throw errors.invalid(SCALE_KIND, name, [negative]);
  if (typeof r !== 'number' || !Number.isInteger(r)) {
    // kube-apiserver's 422 quotes the whole patched Scale; the reason is the same decode error.
    const got =
      typeof r === 'number'
        ? `number ${r}`
        : r === undefined
          ? 'nothing'
          : typeof r === 'object'
            ? r === null
              ? 'null'
              : Array.isArray(r)
                ? 'array'
                : 'object'
            : typeof r;
    throw errors.invalid(SCALE_KIND, name, [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(r ?? null)}: json: cannot unmarshal ${got} into Go struct field ScaleSpec.spec.replicas of type int32`,
        field: 'spec.replicas',
      },
    ]);
  }
  return r;
}

/** GET, PUT and PATCH (merge, strategic — the same for a Scale — and JSON patch) of .../scale. */
export async function answerScale(
  objects: ObjectStore,
  t: ResourceType,
  namespace: string | undefined,
  name: string,
  req: IncomingMessage,
  opts: WriteOptions,
): Promise<JsonObject> {
  const method = req.method ?? 'GET';
  if (method === 'GET') return toScale(t, objects.get(t, namespace, name));
  if (method !== 'PUT' && method !== 'PATCH')
    throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  const raw = await readBody(req);
  const type = mediaType(req);
  let parsed: JsonValue;
  if (method === 'PUT' && isProtobufContentType(type)) {
    parsed = decodeProtobufBody(raw, { group: 'autoscaling', version: 'v1', kind: 'Scale', custom: false });
  } else {
    checkJsonNesting(raw, method === 'PUT' ? { object: 'Scale' } : 'patch');
    try {
      parsed = JSON.parse(raw.toString('utf8')) as JsonValue;
    } catch {
      throw errors.badRequest('the Scale body could not be decoded as JSON');
    }
  }
  const current = toScale(t, objects.get(t, namespace, name));
  const next =
    method === 'PUT'
      ? parsed
      : type === 'application/json-patch+json'
        ? jsonPatch(current, parsed)
        : mergePatch(current, parsed);
  const replicas = replicasOf(next, name);
  const updated = objects.patch(
    t,
    namespace,
    name,
    (obj) => setPath(obj, (t.scaleSubresource ?? BUILTIN_PATHS).specReplicasPath, replicas),
    opts,
  );
  return toScale(t, updated);
}
