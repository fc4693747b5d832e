import type { JsonObject, JsonValue } from '../registry/types.js';

/**
 * The building blocks of the defaulting tables. kube-apiserver's SetDefaults_* functions test a Go
 * field against its zero value: a pointer (or a map, a slice) is unset when nil, a plain string,
 * number or bool when it holds "", 0 or false. In JSON both nil and an absent key read as unset,
 * and so does null.
 */

/** `nil`: only absence (or null) is unset, as for a Go pointer; `zero`: Go's zero value is unset too. */
export type Presence = 'nil' | 'zero';

/** One row of a defaulting table: the JSON field, its default, and how Go tells it is unset. */
export type DefaultRow = readonly [field: string, value: JsonValue, unset: Presence];

export function isUnset(v: JsonValue | undefined, unset: Presence): boolean {
  if (v === undefined || v === null) return true;
  return unset === 'zero' && (v === '' || v === 0 || v === false);
}

/** Applies a table to `obj` in place: each unset field gets (a copy of) its default. */
export function applyRows(obj: JsonObject, rows: readonly DefaultRow[]): void {
  for (const [field, value, unset] of rows) {
    if (isUnset(obj[field], unset))
      obj[field] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
  }
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object at `obj[key]`, created empty when absent or null (a Go struct that defaulting fills). */
export function objectAt(obj: JsonObject, key: string): JsonObject {
  const v = obj[key];
  if (isObject(v)) return v;
  const created: JsonObject = {};
  obj[key] = created;
  return created;
}

/** The object at `obj[key]` when there is one: for optional Go pointers that defaulting only fills in. */
export function existingObject(obj: JsonObject, key: string): JsonObject | undefined {
  const v = obj[key];
  return isObject(v) ? v : undefined;
}

/** The object at the end of `keys` when every step exists: a read that makes nothing (objectAt would). */
export function existingAt(obj: JsonObject | undefined, ...keys: string[]): JsonObject | undefined {
  let at: JsonObject | undefined = obj;
  for (const k of keys) at = at ? existingObject(at, k) : undefined;
  return at;
}

/** The objects in the list at `obj[key]` (non-objects are left to validation). */
export function objectsIn(obj: JsonObject, key: string): JsonObject[] {
  const v = obj[key];
  return Array.isArray(v) ? v.filter(isObject) : [];
}
