import type { JsonObject, JsonValue } from '../registry/types.js';
import { cloneJson } from './json-clone.js';

export function metadataOf(obj: JsonObject): JsonObject {
  const m = obj.metadata;
  if (m && typeof m === 'object' && !Array.isArray(m)) return m;
  const fresh: JsonObject = {};
  obj.metadata = fresh;
  return fresh;
}

export function stringField(obj: JsonObject, key: string): string | undefined {
  const v = obj[key];
  return typeof v === 'string' ? v : undefined;
}

export function labelsOf(obj: JsonObject): Record<string, string> {
  const l = metadataOf(obj).labels;
  return l && typeof l === 'object' && !Array.isArray(l) ? (l as Record<string, string>) : {};
}

export function finalizersOf(obj: JsonObject): string[] {
  const f = metadataOf(obj).finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Everything that still holds a deleted object: metadata.finalizers, plus a Namespace's
 * spec.finalizers (the namespace controller's "kubernetes" finalizer lives there).
 */
export function pendingFinalizers(obj: JsonObject): string[] {
  const own = finalizersOf(obj);
  if (obj.kind !== 'Namespace' || obj.apiVersion !== 'v1') return own;
  const spec = obj.spec;
  const nsFinalizers =
    isObject(spec) && Array.isArray(spec.finalizers)
      ? spec.finalizers.filter((x): x is string => typeof x === 'string')
      : [];
  return [...own, ...nsFinalizers];
}

let lastSecond = -1;
let lastTimestamp = '';

/** RFC 3339 to the second, as Kubernetes writes metav1.Time; formatted once per second, not per write. */
export function nowTimestamp(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTimestamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastTimestamp;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a).filter((k) => a[k] !== undefined);
  const bk = Object.keys(b as JsonObject).filter((k) => (b as JsonObject)[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => deepEqual(a[k], (b as JsonObject)[k]));
}

export const clone = cloneJson;

/** Reads a dotted field path (`involvedObject.name`, `spec.nodeName`) as a selector string. */
export function fieldAt(obj: JsonObject, path: string): string | undefined {
  let cur: JsonValue | undefined = obj;
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  if (cur === undefined || cur === null) return undefined;
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
}

/** ObjectMeta's maps and lists are `omitempty`: kube-apiserver never stores or answers them empty. */
const OMIT_EMPTY_META = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

export function dropEmptyMetadataFields(meta: JsonValue | undefined): void {
  if (!isObject(meta)) return;
  for (const k of OMIT_EMPTY_META) {
    const v = meta[k];
    if ((Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)) delete meta[k];
  }
}

/**
 * An object as meta.k8s.io/v1 PartialObjectMetadata (metadata-only reads and watches, Table rows):
 * kube-apiserver takes it from the internal object, whose metadata lacks what only the versioned
 * conversion adds — a DaemonSet's deprecated.daemonset.template.generation annotation (its
 * spec.templateGeneration inside).
 */
export function partialObjectMetadata(t: { group: string; kind: string }, obj: JsonObject): JsonObject {
  let metadata = isObject(obj.metadata) ? obj.metadata : {};
  const annotations = isObject(metadata.annotations) ? metadata.annotations : undefined;
  if (t.group === 'apps' && t.kind === 'DaemonSet' && annotations?.[DAEMONSET_TEMPLATE_GENERATION] !== undefined) {
    const { [DAEMONSET_TEMPLATE_GENERATION]: _, ...rest } = annotations;
    metadata = { ...metadata, annotations: rest };
    if (!Object.keys(rest).length) delete metadata.annotations;
  }
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata };
}

const DAEMONSET_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';
