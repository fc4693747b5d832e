import { additionalOf, isEmbedded, isObject, itemsOf, propertyOf } from './access.js';
import { duplicate, invalid, required } from './field-errors.js';
import { goJson } from './gofmt.js';
import type { FieldCause, JsonObject, JsonSchemaProps, JsonValue } from './types.js';

/**
 * The checks kube-apiserver runs after the OpenAPI validator, on the structural schema: embedded
 * resources' apiVersion/kind, then x-kubernetes-list-type uniqueness. Paths here are field.Path
 * strings: `.name` for properties, `[key]` for additionalProperties, `[i]` for items.
 */

type Visit = (data: JsonValue, s: JsonSchemaProps, path: string) => void;

function walk(data: JsonValue, s: JsonSchemaProps, path: string, visit: Visit): void {
  visit(data, s, path);
  if (isObject(data)) {
    const ap = additionalOf(s);
    for (const [k, v] of Object.entries(data)) {
      const prop = propertyOf(s, k);
      if (prop) walk(v, prop, path ? `${path}.${k}` : k, visit);
      else if (ap && ap !== true) walk(v, ap, `${path}[${k}]`, visit);
    }
  } else if (Array.isArray(data)) {
    const items = itemsOf(s);
    if (items) {
      for (const [i, v] of data.entries()) walk(v, items, `${path}[${i}]`, visit);
    }
  }
}

function embeddedErrors(x: JsonObject, path: string): FieldCause[] {
  const errs: FieldCause[] = [];
  const at = (k: string): string => (path ? `${path}.${k}` : k);
  for (const k of ['apiVersion', 'kind']) {
    const v = x[k];
    if (v === undefined) errs.push(required(at(k), 'must not be empty'));
    else if (typeof v !== 'string') errs.push(invalid(at(k), v, 'must be a string'));
    else if (v === '') errs.push(invalid(at(k), v, 'must not be empty'));
  }
  return errs;
}

/** Indices of the first repeat of each value, as structurallisttype.validateListSet reports them. */
function repeats(keys: string[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  keys.forEach((k, i) => {
    const n = seen.get(k) ?? 0;
    if (n === 1) out.push(i);
    seen.set(k, n + 1);
  });
  return out;
}

function listErrors(list: JsonValue[], s: JsonSchemaProps, path: string): FieldCause[] {
  const type = s['x-kubernetes-list-type'];
  if (type === 'set') return repeats(list.map(goJson)).map((i) => duplicate(`${path}[${i}]`, list[i]));
  if (type !== 'map') return [];
  const bad = list.findIndex((x) => x !== null && !isObject(x));
  if (bad >= 0) return [invalid(`${path}[${bad}]`, list[bad], 'must be an object for an array of list-type map')];
  const mapKeys = Array.isArray(s['x-kubernetes-list-map-keys'])
    ? s['x-kubernetes-list-map-keys'].filter((k) => typeof k === 'string')
    : [];
  const keyObjects = list.map((x) => {
    const key: JsonObject = {};
    for (const k of mapKeys) if (isObject(x) && x[k] !== undefined) key[k] = x[k]!;
    return key;
  });
  return repeats(keyObjects.map(goJson)).map((i) => duplicate(`${path}[${i}]`, keyObjects[i]));
}

export function structuralErrors(obj: JsonValue, schema: JsonSchemaProps): FieldCause[] {
  const embedded: FieldCause[] = [];
  const lists: FieldCause[] = [];
  walk(obj, schema, '', (data, s, path) => {
    if (path && isEmbedded(s) && isObject(data)) embedded.push(...embeddedErrors(data, path));
    if (Array.isArray(data)) lists.push(...listErrors(data, s, path));
  });
  return [...embedded, ...lists];
}
