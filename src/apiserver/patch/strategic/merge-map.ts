import type { FieldSchema } from './builtin-schema.js';
import {
  DELETE_FROM_PRIMITIVE_LIST,
  DELETED,
  type Deleted,
  directiveTarget,
  PATCH_DIRECTIVE,
  RETAIN_KEYS,
  SET_ELEMENT_ORDER,
} from './directives.js';
import { normalizeElementOrder, partitionByPresence, validateSetElementOrder } from './element-order.js';
import {
  ERR_PRIMITIVE_LIST,
  ERR_RETAIN_KEYS,
  ERR_RETAIN_KEYS_MISMATCH,
  ERR_SET_ELEMENT_ORDER,
  PatchError,
} from './errors.js';
import { describe, isJsonObject, isPrimitive, type JsonObject, type JsonValue } from './json.js';
import { listStrategy } from './list-strategy.js';
import { cleanList, mergeList } from './merge-list.js';

/**
 * Merges `patch` into `original` (undefined = absent), following mergeMap in
 * k8s.io/apimachinery/pkg/util/strategicpatch. Returns DELETED for
 * `$patch: delete`. Callers pass values they own: `original` is copied, `patch`
 * is only read.
 */
export function mergeMap(
  original: JsonObject | undefined,
  patchIn: JsonObject,
  schema: FieldSchema | undefined,
): JsonObject | Deleted {
  const patch: JsonObject = { ...patchIn };
  if (PATCH_DIRECTIVE in patch) {
    const directive = patch[PATCH_DIRECTIVE];
    delete patch[PATCH_DIRECTIVE];
    if (directive === 'delete') return DELETED;
    if (directive === 'replace') return mergeMap(undefined, patch, schema);
    // The real server rejects `$patch: merge` on a map; merging is what it would do anyway, so accept it.
    if (directive !== 'merge')
      throw new PatchError(`unknown patch type: ${describe(directive)} in map: ${describe(patchIn)}`);
  }

  const out: JsonObject = original ? { ...original } : {};
  applyRetainKeys(out, patch);
  applySetElementOrder(out, patch, schema);

  for (const [key, patchValue] of Object.entries(patch)) {
    const deleteTarget = directiveTarget(key, DELETE_FROM_PRIMITIVE_LIST);
    if (deleteTarget !== undefined) {
      deleteFromPrimitiveList(out, deleteTarget, patchValue);
      continue;
    }
    if (patchValue === null) {
      delete out[key];
      continue;
    }
    const merged = mergeField(out[key], patchValue, schema?.fields?.[key], patch, key);
    // The real server leaves `{}` behind for a nested `$patch: delete`; dropping
    // the key is what the typed round-trip (omitempty) makes of it for built-ins.
    if (merged === DELETED) delete out[key];
    else out[key] = merged;
  }
  return out;
}

function mergeField(
  live: JsonValue | undefined,
  patchValue: JsonValue,
  schema: FieldSchema | undefined,
  patchMap: JsonObject,
  key: string,
): JsonValue | Deleted {
  if (isJsonObject(patchValue)) {
    if (schema?.replaceMap) return mergeMap(undefined, patchValue, schema);
    return mergeMap(isJsonObject(live) ? live : undefined, patchValue, schema);
  }
  if (Array.isArray(patchValue)) {
    const strategy = listStrategy(schema, patchMap, key);
    if (!Array.isArray(live))
      return live === undefined ? mergeList([], patchValue, strategy, schema) : cleanList(patchValue, schema);
    return mergeList(live, patchValue, strategy, schema);
  }
  return patchValue;
}

/**
 * `$retainKeys`: every key the patch sets must be listed, and live keys not
 * listed are cleared before merging (how kubectl apply removes e.g.
 * `rollingUpdate` when a Deployment strategy switches to Recreate).
 */
function applyRetainKeys(out: JsonObject, patch: JsonObject): void {
  if (!(RETAIN_KEYS in patch)) return;
  const retain = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(retain)) throw new PatchError(ERR_RETAIN_KEYS, 400);
  const keep = new Set(retain.filter((k): k is string => typeof k === 'string'));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(key)) throw new PatchError(ERR_RETAIN_KEYS_MISMATCH, 422);
  }
  for (const key of Object.keys(out)) if (!keep.has(key)) delete out[key];
}

/**
 * `$setElementOrder/<field>` fixes the final order of a merged list. The list it
 * names is merged here, together with its ordering, and removed from `patch`
 * so the main loop does not merge it twice.
 */
function applySetElementOrder(out: JsonObject, patch: JsonObject, schema: FieldSchema | undefined): void {
  for (const directiveKey of Object.keys(patch)) {
    const field = directiveTarget(directiveKey, SET_ELEMENT_ORDER);
    if (field === undefined) continue;
    const order = patch[directiveKey];
    if (field === null || !Array.isArray(order)) throw new PatchError(ERR_SET_ELEMENT_ORDER, 400);
    const fieldSchema = schema?.fields?.[field];
    const strategy = listStrategy(fieldSchema, patch, field);
    delete patch[directiveKey];

    const live = out[field];
    const patchList = patch[field];
    if (live !== undefined && !Array.isArray(live))
      throw new PatchError(`expected a list at "${field}", but the object has ${describe(live)}`);
    if (patchList === null) continue; // the main loop deletes the field
    if (patchList !== undefined && !Array.isArray(patchList)) throw new PatchError(ERR_SET_ELEMENT_ORDER, 400);
    if (live === undefined && patchList === undefined) continue;

    const key = strategy.kind === 'map' ? strategy.key : undefined;
    if (key === undefined && !order.every(isPrimitive)) throw new PatchError(ERR_SET_ELEMENT_ORDER, 400);
    validateSetElementOrder(patchList, order, key);
    const merged = patchList === undefined ? [...live!] : mergeList(live ?? [], patchList, strategy, fieldSchema);
    const [patchItems, serverOnly] = partitionByPresence(merged, order, key);
    out[field] = normalizeElementOrder(patchItems, serverOnly, order, live ?? [], key);
    delete patch[field];
  }
}

/** `$deleteFromPrimitiveList/<field>`: drop these scalars (e.g. finalizers). */
function deleteFromPrimitiveList(out: JsonObject, field: string | null, values: JsonValue): void {
  if (field === null || !Array.isArray(values)) throw new PatchError(ERR_PRIMITIVE_LIST, 400);
  const live = out[field];
  if (live === undefined) return;
  if (!Array.isArray(live)) throw new PatchError(`expected a list at "${field}", but the object has ${describe(live)}`);
  out[field] = live.filter((item) => !(isPrimitive(item) && values.includes(item)));
}
