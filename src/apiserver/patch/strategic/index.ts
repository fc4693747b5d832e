import { builtinSchema, type GroupVersionKind } from './builtin-schema.js';
import { DELETED } from './directives.js';
import { PatchError } from './errors.js';
import { cloneJson, isJsonObject, type JsonObject } from './json.js';
import { mergeMap } from './merge-map.js';

export { PatchError, type PatchErrorCode } from './errors.js';
export { supportsStrategicMerge, builtinSchema, type FieldSchema, type GroupVersionKind } from './builtin-schema.js';
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js';

/**
 * Applies an `application/strategic-merge-patch+json` body to `original`.
 * Callers check supportsStrategicMerge(gvk) first (custom resources answer 415);
 * kinds without table entries still merge maps and honour the directives.
 */
export function strategicMergePatch(original: JsonObject, patch: JsonObject, gvk: GroupVersionKind): JsonObject {
  if (!isJsonObject(patch)) throw new PatchError('invalid JSON document', 400);
  const result = mergeMap(cloneJson(original), cloneJson(patch), builtinSchema(gvk));
  return result === DELETED ? {} : result;
}
