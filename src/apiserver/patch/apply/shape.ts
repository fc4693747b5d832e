import { isJsonObject, type JsonObject, type JsonValue } from '../strategic/json.js';

export function isEmptyContainer(v: JsonValue | undefined): boolean {
  return (Array.isArray(v) && v.length === 0) || (isJsonObject(v) && Object.keys(v).length === 0);
}

/** Both absent-or-empty: structured-merge-diff then treats the value as a single leaf. */
export function bothEmpty(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return (a === undefined || isEmptyContainer(a)) && (b === undefined || isEmptyContainer(b));
}

/**
 * An apply configuration's `field: null` neither sets nor claims the field;
 * dropping nulls up front keeps them out of the merge and of the field set.
 */
export function withoutNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isJsonObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(v)) if (child !== null) out[k] = withoutNulls(child);
  return out;
}
