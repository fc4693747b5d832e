import type { JsonObject, JsonValue } from '../registry/types.js';
import { ageOf } from './human-duration.js';

// The small readers every table cell uses on stored JSON (which may lack any field).
export const get = (obj: JsonValue | undefined, ...path: string[]): JsonValue | undefined => {
  let cur = obj;
  for (const p of path) cur = cur && typeof cur === 'object' && !Array.isArray(cur) ? cur[p] : undefined;
  return cur;
};
export const num = (v: JsonValue | undefined): number => (typeof v === 'number' ? v : 0);
export const text = (v: JsonValue | undefined): string => (v === undefined || v === null ? '' : String(v));
export const orNone = (v: JsonValue | undefined, none = '<none>'): string =>
  v === undefined || v === null || v === '' ? none : String(v);
export const count = (v: JsonValue | undefined): number => (v && typeof v === 'object' ? Object.keys(v).length : 0);
export const list = (v: JsonValue | undefined): JsonObject[] =>
  Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object' && !Array.isArray(x)) as JsonObject[]) : [];
export const strings = (v: JsonValue | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);
export const isMap = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Age column: the creation time as kubectl's human duration. */
export const ageCell = (o: JsonObject): JsonValue => ageOf(get(o, 'metadata', 'creationTimestamp'));
/** "Created At": the creation time itself (metav1.Time's UTC RFC 3339 text). */
export const createdAtCell = (o: JsonObject): JsonValue => text(get(o, 'metadata', 'creationTimestamp'));
