import { additionalOf, isEmbedded, isObject, itemsOf, preservesUnknown, propertyOf } from './access.js';
import { compareGo } from './gofmt.js';
import type { JsonObject, JsonSchemaProps, JsonValue } from './types.js';
import { cloneJson } from '../objects/json-clone.js';

/**
 * Structural pruning (apiextensions structuralpruning) plus the ObjectMeta coercion kube-apiserver
 * applies to `metadata` of the resource and of embedded resources. Operates on a private copy.
 */

const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);
const OWNER_REFERENCE_FIELDS = new Set(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']);

/** Holder for an anonymous `additionalProperties: true`: keep whatever is there. */
const KEEP_ALL: JsonSchemaProps = { 'x-kubernetes-preserve-unknown-fields': true };

class Pruner {
  readonly pruned: string[] = [];

  private drop(x: JsonObject, key: string, path: string): void {
    this.pruned.push(join(path, key));
    delete x[key];
  }

  coerceMetadata(meta: JsonValue | undefined, path: string): void {
    if (!isObject(meta)) return;
    for (const k of Object.keys(meta)) if (!OBJECT_META_FIELDS.has(k)) this.drop(meta, k, path);
    const refs = meta.ownerReferences;
    if (Array.isArray(refs)) {
      refs.forEach((ref, i) => {
        if (isObject(ref))
          for (const k of Object.keys(ref))
            if (!OWNER_REFERENCE_FIELDS.has(k)) this.drop(ref, k, `${join(path, 'ownerReferences')}[${i}]`);
      });
    }
  }

  prune(x: JsonValue, s: JsonSchemaProps | undefined, isResourceRoot: boolean, path: string): void {
    if (s && preservesUnknown(s)) {
      this.skipPrune(x, s, isResourceRoot, path);
      return;
    }
    if (isObject(x)) {
      for (const k of Object.keys(x)) {
        if (!s) {
          this.drop(x, k, path);
          continue;
        }
        if (this.typeMeta(x, k, s, isResourceRoot, path)) continue;
        const prop = propertyOf(s, k);
        const ap = additionalOf(s);
        if (prop) this.prune(x[k]!, prop, false, join(path, k));
        else if (ap) this.prune(x[k]!, ap === true ? KEEP_ALL : ap, false, join(path, k));
        else this.drop(x, k, path);
      }
    } else if (Array.isArray(x)) {
      for (const [i, v] of x.entries()) this.prune(v, itemsOf(s), false, `${path}[${i}]`);
    }
  }

  /** Under x-kubernetes-preserve-unknown-fields unknown keys stay, but specified fields are still pruned. */
  private skipPrune(x: JsonValue, s: JsonSchemaProps | undefined, isResourceRoot: boolean, path: string): void {
    if (!s) return;
    if (isObject(x)) {
      for (const k of Object.keys(x)) {
        if (this.typeMeta(x, k, s, isResourceRoot, path)) continue;
        const prop = propertyOf(s, k);
        const ap = additionalOf(s);
        if (prop) this.prune(x[k]!, prop, false, join(path, k));
        else if (ap && ap !== true) this.prune(x[k]!, ap, false, join(path, k));
      }
    } else if (Array.isArray(x)) {
      for (const [i, v] of x.entries()) this.skipPrune(v, itemsOf(s), false, `${path}[${i}]`);
    }
  }

  /** apiVersion, kind and metadata of a resource or embedded resource are never the schema's business. */
  private typeMeta(x: JsonObject, k: string, s: JsonSchemaProps, isResourceRoot: boolean, path: string): boolean {
    if (!isResourceRoot && !isEmbedded(s)) return false;
    if (k === 'apiVersion' || k === 'kind') return true;
    if (k === 'metadata') {
      this.coerceMetadata(x[k], join(path, k));
      return true;
    }
    return false;
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Non-nullable nulls without a default go too, so that they neither fail validation nor get stored. */
function pruneNonNullableNulls(x: JsonValue, s: JsonSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    const ap = additionalOf(s);
    for (const k of Object.keys(x)) {
      const sub = propertyOf(s, k) ?? (ap && ap !== true ? ap : undefined);
      if (!sub) continue;
      if (x[k] === null && sub.nullable !== true && sub.default === undefined) delete x[k];
      else pruneNonNullableNulls(x[k]!, sub);
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNulls(v, itemsOf(s));
  }
}

/** Returns a pruned copy, as kube-apiserver stores it by default. Root apiVersion/kind/metadata stay. */
export function pruneUnknownFields(obj: JsonObject, schema: JsonSchemaProps): JsonObject {
  const copy = cloneJson(obj);
  new Pruner().prune(copy, schema, true, '');
  pruneNonNullableNulls(copy, schema);
  return copy;
}

/**
 * The fields pruning would drop, sorted, as `fieldValidation=Strict` reports them
 * (`strict decoding error: unknown field "spec.foo"`) and `Warn` warns about them.
 */
export function findUnknownFields(obj: unknown, schema: JsonSchemaProps): string[] {
  if (!isObject(obj)) return [];
  const pruner = new Pruner();
  pruner.prune(cloneJson(obj), schema, true, '');
  return [...new Set(pruner.pruned)].sort(compareGo);
}
