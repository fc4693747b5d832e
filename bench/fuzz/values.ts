// Values the mutations put into an object: one of the right type (for a field the seed leaves out),
// one of a wrong type, and the classic bad names, labels and numbers.
import { isObject } from '../../src/apiserver/objects/meta.js';
import type { JsonObject, JsonValue } from '../../src/apiserver/registry/types.js';
import type { Prng } from './prng.js';
import { enumValues, typeOf, type FieldPath } from './schema.js';

export function typedValue(s: JsonObject, rng: Prng): JsonValue {
  const enums = enumValues(s);
  if (enums.length) return rng.pick(enums);
  switch (typeOf(s)) {
    case 'string':
      if (s.format === 'date-time') return '2024-01-02T03:04:05Z';
      if (s.format === 'byte') return 'Yg==';
      return s.format === 'int-or-string' ? rng.pick([8080, 'http']) : rng.pick(['x', 'abc', '1']);
    case 'integer':
      return rng.pick([1, 2, 30]);
    case 'number':
      return 1;
    case 'boolean':
      return rng.pick([true, false]);
    case 'array':
      return [];
    case 'object':
      return isObject(s.additionalProperties) ? { k: typedValue(s.additionalProperties, rng) } : {};
    default:
      return 'x';
  }
}

export function wrongTypeValue(s: JsonObject, rng: Prng): JsonValue {
  switch (typeOf(s)) {
    case 'string':
      return s.format === 'int-or-string' ? rng.pick([true, { a: 1 }]) : rng.pick([12, true, { a: 'b' }, ['x']]);
    case 'integer':
    case 'number':
      return rng.pick(['12', true, 1.5, { a: 1 }]);
    case 'boolean':
      return rng.pick(['true', 1]);
    case 'array':
      return rng.pick(['x', { a: 'b' }, 3]);
    case 'object':
      return rng.pick(['notanobject', ['x'], 7]);
    default:
      return rng.pick([12, 'x']);
  }
}

/** A scalar changed to another value of its type (an enum to another member). */
export function changedValue(v: JsonValue, s: JsonObject, rng: Prng): JsonValue {
  const enums = enumValues(s).filter((e) => e !== v);
  if (enums.length) return rng.pick(enums);
  if (typeof v === 'string') return `${v}x`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  return typedValue(s, rng);
}

export const badNames = (id: number): string[] => [
  `Bad_Name-${id}`,
  `-lead-${id}`,
  `fz-${id}-`,
  `FZ-${id}`,
  `fz..${id}`,
  `fz.${id}`,
  `${'a'.repeat(250)}${id}`,
  `fz-${id}-${'a'.repeat(60)}`,
];

/**
 * An empty name, not sent for a Service: kube-apiserver 1.34.4 allocates its ClusterIP before it
 * validates the name, fails to record an IPAddress without a parent name, and walks the whole
 * range retrying, so every later Service create times out (seen with --seed 1).
 */
export const EMPTY_NAME_KINDS_EXCLUDED = new Set(['Service']);

export const BAD_LABEL_KEYS = ['Bad Key', 'a/b/c', '-x', 'x'.repeat(64), 'Example.COM/x', 'example.com/', '/x'];
export const BAD_LABEL_VALUES: JsonValue[] = ['bad value', '-x', 'x'.repeat(64), 'a_', true, 12, null];
export const OUT_OF_RANGE: JsonValue[] = [-1, 0, 65536, 2147483648, 1.5];

export function setAt(obj: JsonObject, path: FieldPath, value: JsonValue): void {
  let cur: JsonValue = obj;
  for (const [i, key] of path.entries()) {
    if (cur === null || typeof cur !== 'object') return;
    const last = i === path.length - 1;
    if (Array.isArray(cur)) {
      if (typeof key !== 'number') return;
      if (last) cur[key] = value;
      else cur = cur[key] ?? null;
    } else {
      const k = String(key);
      if (last) cur[k] = value;
      else cur = cur[k] ??= {};
    }
  }
}

export function deleteAt(obj: JsonObject, path: FieldPath): void {
  let cur: JsonValue | undefined = obj;
  for (const key of path.slice(0, -1))
    cur =
      cur !== null && typeof cur === 'object' ? (Array.isArray(cur) ? cur[Number(key)] : cur[String(key)]) : undefined;
  const last = path[path.length - 1];
  if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1);
  else if (isObject(cur) && last !== undefined) delete cur[String(last)];
}
