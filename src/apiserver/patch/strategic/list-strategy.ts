import type { FieldSchema } from './builtin-schema.js';
import { DELETE_FROM_PRIMITIVE_LIST, PATCH_DIRECTIVE, SET_ELEMENT_ORDER } from './directives.js';
import { isJsonObject, isPrimitive, type JsonObject, type JsonValue } from './json.js';

export type ListStrategy =
  | { readonly kind: 'replace' }
  | { readonly kind: 'scalars' }
  | { readonly kind: 'map'; readonly key: string };

const REPLACE: ListStrategy = { kind: 'replace' };
const SCALARS: ListStrategy = { kind: 'scalars' };

/**
 * How to merge the list `field` of `patchMap`. The built-in table wins; for
 * fields it does not know (kinds outside the table, fields added in newer
 * Kubernetes versions) the directives kubectl generated tell us what kubectl
 * believed the merge key to be, so we trust them rather than clobber the list.
 */
export function listStrategy(schema: FieldSchema | undefined, patchMap: JsonObject, field: string): ListStrategy {
  if (schema?.mergeKey) return { kind: 'map', key: schema.mergeKey };
  if (schema?.mergeScalars) return SCALARS;
  return inferFromDirectives(patchMap, field) ?? REPLACE;
}

function inferFromDirectives(patchMap: JsonObject, field: string): ListStrategy | undefined {
  if (Array.isArray(patchMap[`${DELETE_FROM_PRIMITIVE_LIST}/${field}`])) return SCALARS;
  const order = patchMap[`${SET_ELEMENT_ORDER}/${field}`];
  if (Array.isArray(order) && order.length > 0) {
    if (order.every(isPrimitive)) return SCALARS;
    const key = singleKeyOf(order);
    if (key) return { kind: 'map', key };
  }
  const list = patchMap[field];
  if (Array.isArray(list)) {
    const directives = list.filter((el): el is JsonObject => isJsonObject(el) && el[PATCH_DIRECTIVE] === 'delete');
    const key = singleKeyOf(directives.map(withoutDirective));
    if (key) return { kind: 'map', key };
  }
  return undefined;
}

function withoutDirective(el: JsonObject): JsonObject {
  const { [PATCH_DIRECTIVE]: _ignored, ...rest } = el;
  return rest;
}

/** The one key every entry uses, e.g. `name` in `[{"name":"a"},{"name":"b"}]`. */
function singleKeyOf(entries: readonly JsonValue[]): string | undefined {
  let key: string | undefined;
  for (const entry of entries) {
    if (!isJsonObject(entry)) return undefined;
    const keys = Object.keys(entry);
    if (keys.length !== 1 || (key !== undefined && keys[0] !== key)) return undefined;
    key = keys[0];
  }
  return key;
}
