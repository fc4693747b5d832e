import type { JsonObject, JsonValue } from '../registry/types.js';
import { cloneJson } from '../objects/json-clone.js';

const isMap = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch: maps merge, null deletes, everything else replaces. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isMap(patch)) return cloneJson(patch);
  const out: JsonObject = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
