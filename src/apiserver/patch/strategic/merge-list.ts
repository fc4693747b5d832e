import type { FieldSchema } from './builtin-schema.js';
import { DELETED, PATCH_DIRECTIVE } from './directives.js';
import { normalizeElementOrder, partitionByPresence } from './element-order.js';
import { ERR_LIST_OF_LISTS, PatchError } from './errors.js';
import { describe, isJsonObject, type JsonObject, type JsonValue } from './json.js';
import type { ListStrategy } from './list-strategy.js';
import { mergeMap } from './merge-map.js';

/** Merges a patch list into a live list; `schema` describes the elements. */
export function mergeList(
  original: readonly JsonValue[],
  patch: readonly JsonValue[],
  strategy: ListStrategy,
  schema: FieldSchema | undefined,
): JsonValue[] {
  switch (strategy.kind) {
    case 'replace':
      return cleanList(patch, schema);
    case 'scalars':
      return mergeScalars(original, patch);
    case 'map':
      return mergeByKey(original, patch, strategy.key, schema);
  }
}

/**
 * A list taken verbatim from the patch still has to lose its directives and
 * nulls; the real server gets the same effect by decoding into typed structs.
 */
export function cleanList(list: readonly JsonValue[], schema: FieldSchema | undefined): JsonValue[] {
  const out: JsonValue[] = [];
  for (const el of list) {
    if (!isJsonObject(el)) {
      out.push(el);
      continue;
    }
    const cleaned = mergeMap(undefined, el, schema);
    if (cleaned !== DELETED && !(PATCH_DIRECTIVE in el && Object.keys(el).length === 1)) out.push(cleaned);
  }
  return out;
}

function mergeScalars(original: readonly JsonValue[], patch: readonly JsonValue[]): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return [...original];
  for (const el of [...original, ...patch]) {
    if (Array.isArray(el)) throw new PatchError(ERR_LIST_OF_LISTS, 422);
    if (isJsonObject(el)) throw new PatchError('cannot merge lists without merge key for type map');
  }
  const both: JsonValue[] = [];
  for (const el of [...original, ...patch]) if (!both.includes(el)) both.push(el);
  const [patchItems, serverOnly] = partitionByPresence(both, patch, undefined);
  return normalizeElementOrder(patchItems, serverOnly, patch, original, undefined);
}

function mergeByKey(
  original: readonly JsonValue[],
  patch: readonly JsonValue[],
  key: string,
  schema: FieldSchema | undefined,
): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return [];
  for (const el of [...original, ...patch]) {
    if (Array.isArray(el)) throw new PatchError(ERR_LIST_OF_LISTS, 422);
    if (!isJsonObject(el))
      throw new PatchError(`expected a map, but received ${describe(el)} in a list merged by "${key}"`);
  }
  const { base, items, replaced } = applySpecialElements(original as JsonObject[], patch as JsonObject[], key);
  if (replaced) return cleanList(items, schema);

  const merged: JsonValue[] = [...base];
  for (const item of items) {
    if (!(key in item)) throw new PatchError(`map: ${describe(item)} does not contain declared merge key: ${key}`);
    const at = merged.findIndex((el) => isJsonObject(el) && el[key] === item[key]);
    const next = mergeMap(at >= 0 ? (merged[at] as JsonObject) : undefined, item, schema);
    if (next === DELETED) {
      if (at >= 0) merged.splice(at, 1);
    } else if (at >= 0) merged[at] = next;
    else merged.push(next);
  }
  const [patchItems, serverOnly] = partitionByPresence(merged, items, key);
  return normalizeElementOrder(patchItems, serverOnly, items, base, key);
}

/**
 * Handles `{"$patch":"delete", key: v}` (drop live elements with that key) and
 * `{"$patch":"replace"}` (the remaining patch elements become the whole list).
 */
function applySpecialElements(
  original: readonly JsonObject[],
  patch: readonly JsonObject[],
  key: string,
): { base: JsonObject[]; items: JsonObject[]; replaced: boolean } {
  let base = [...original];
  const items: JsonObject[] = [];
  let replaced = false;
  for (const el of patch) {
    if (!(PATCH_DIRECTIVE in el)) {
      items.push(el);
      continue;
    }
    const directive = el[PATCH_DIRECTIVE];
    switch (directive) {
      case 'delete': {
        if (!(key in el)) throw new PatchError(`map: ${describe(el)} does not contain declared merge key: ${key}`);
        base = base.filter((live) => live[key] !== el[key]);
        break;
      }
      case 'replace':
        replaced = true;
        break;
      case 'merge':
        throw new PatchError('merging lists cannot yet be specified in the patch');
      default:
        throw new PatchError(`unknown patch type: ${describe(directive)} in map: ${describe(el)}`);
    }
  }
  return { base, items, replaced };
}
