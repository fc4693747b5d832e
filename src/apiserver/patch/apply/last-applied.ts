import type { FieldSet } from './fieldpath.js';
import type { ListTypeResolver } from './list-types.js';
import { trackedPart, type Scope } from './scope.js';
import { withoutNulls } from './shape.js';
import { appliedFieldSet } from './to-field-set.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../strategic/json.js';

// kube-apiserver special-cases the manager named "kubectl" so that switching an
// object from client-side to server-side apply neither conflicts with
// kubectl-client-side-apply nor leaves a stale last-applied annotation
// (lastappliedmanager.go / lastappliedupdater.go in k8s.io/apiserver fieldmanager).

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
export const KUBECTL_MANAGER = 'kubectl';

function annotationsOf(obj: JsonObject | undefined): JsonObject | undefined {
  const meta = obj?.metadata;
  return isJsonObject(meta) && isJsonObject(meta.annotations) ? meta.annotations : undefined;
}

/**
 * Fields listed in the live object's last-applied annotation: conflicts on
 * them are allowed, because the client-side apply that owns them was kubectl too.
 */
export function lastAppliedFields(
  live: JsonObject | undefined,
  scope: Scope,
  resolver: ListTypeResolver,
): FieldSet | undefined {
  const raw = annotationsOf(live)?.[LAST_APPLIED_ANNOTATION];
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isJsonObject(parsed)) return undefined;
    return appliedFieldSet(trackedPart(withoutNulls(parsed) as JsonObject, scope)!, resolver);
  } catch {
    return undefined;
  }
}

/** Rewrites an existing last-applied annotation to the configuration just applied. */
export function withSyncedLastApplied(obj: JsonObject, applied: JsonObject): JsonObject {
  const annotations = annotationsOf(obj);
  if (!annotations || !(LAST_APPLIED_ANNOTATION in annotations)) return obj;
  return {
    ...obj,
    metadata: {
      ...(obj.metadata as JsonObject),
      annotations: { ...annotations, [LAST_APPLIED_ANNOTATION]: `${sortedJson(withoutAnnotation(applied))}\n` },
    },
  };
}

function withoutAnnotation(applied: JsonObject): JsonObject {
  const annotations = annotationsOf(applied);
  if (!annotations || !(LAST_APPLIED_ANNOTATION in annotations)) return applied;
  const { [LAST_APPLIED_ANNOTATION]: _dropped, ...rest } = annotations;
  const meta: JsonObject = { ...(applied.metadata as JsonObject) };
  if (Object.keys(rest).length > 0) meta.annotations = rest;
  else delete meta.annotations;
  return { ...applied, metadata: meta };
}

/** Go's encoding/json sorts map keys; kubectl compares the annotation textually. */
function sortedJson(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (isJsonObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(v[k]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
