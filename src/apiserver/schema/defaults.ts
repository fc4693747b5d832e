import { additionalOf, isObject, itemsOf, propertiesOf, propertyOf } from './access.js';
import type { JsonObject, JsonSchemaProps, JsonValue } from './types.js';
import { cloneJson } from '../objects/json-clone.js';

/**
 * structuraldefaulting.Default: a property with a `default` is filled in when it is missing or a null
 * it may not hold; then every value is defaulted against its own schema, including values that were
 * just defaulted. Parents are never created. Returns a copy.
 */
export function applyDefaults(obj: JsonObject, schema: JsonSchemaProps): JsonObject {
  const copy = cloneJson(obj);
  defaultValue(copy, schema);
  return copy;
}

function needsDefault(v: JsonValue | undefined, s: JsonSchemaProps): boolean {
  return s.default !== undefined && (v === undefined || (v === null && s.nullable !== true));
}

function defaultValue(x: JsonValue, s: JsonSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    for (const [k, prop] of Object.entries(propertiesOf(s))) {
      if (isObject(prop) && needsDefault(x[k], prop)) x[k] = structuredClone(prop.default!);
    }
    const ap = additionalOf(s);
    for (const k of Object.keys(x)) {
      const prop = propertyOf(s, k);
      if (prop) defaultValue(x[k]!, prop);
      else if (ap && ap !== true) {
        if (needsDefault(x[k], ap)) x[k] = structuredClone(ap.default!);
        defaultValue(x[k]!, ap);
      }
    }
  } else if (Array.isArray(x)) {
    const items = itemsOf(s);
    if (!items) return;
    x.forEach((v, i) => {
      if (needsDefault(v, items)) x[i] = structuredClone(items.default!);
      defaultValue(x[i]!, items);
    });
  }
}
