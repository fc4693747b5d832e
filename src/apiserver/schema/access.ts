import type { JsonObject, JsonSchemaProps, JsonValue } from './types.js';

/** Shape-checked reads of a schema node: the schema is user input, so no field is trusted. */

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asSchema(v: unknown): JsonSchemaProps | undefined {
  return isObject(v) ? (v as JsonSchemaProps) : undefined;
}

export function propertiesOf(s: JsonSchemaProps | undefined): Record<string, JsonSchemaProps> {
  return s && isObject(s.properties) ? (s.properties as Record<string, JsonSchemaProps>) : {};
}

export function hasProperty(s: JsonSchemaProps | undefined, key: string): boolean {
  return Object.hasOwn(propertiesOf(s), key) && isObject(propertiesOf(s)[key]);
}

export function propertyOf(s: JsonSchemaProps | undefined, key: string): JsonSchemaProps | undefined {
  return hasProperty(s, key) ? propertiesOf(s)[key] : undefined;
}

export function itemsOf(s: JsonSchemaProps | undefined): JsonSchemaProps | undefined {
  return asSchema(s?.items);
}

/**
 * additionalProperties as pruning and defaulting see it: a schema for every extra key, `true` meaning
 * any value is kept as is, or undefined when extra keys are unknown fields (absent or `false`).
 */
export function additionalOf(s: JsonSchemaProps | undefined): JsonSchemaProps | true | undefined {
  const ap = s?.additionalProperties;
  if (ap === true) return true;
  return asSchema(ap);
}

export function preservesUnknown(s: JsonSchemaProps | undefined): boolean {
  return s?.['x-kubernetes-preserve-unknown-fields'] === true;
}

export function isEmbedded(s: JsonSchemaProps | undefined): boolean {
  return s?.['x-kubernetes-embedded-resource'] === true;
}

export function isIntOrString(s: JsonSchemaProps | undefined): boolean {
  return s?.['x-kubernetes-int-or-string'] === true;
}

export function numberOf(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function schemasOf(v: unknown): JsonSchemaProps[] {
  return Array.isArray(v) ? v.filter(isObject).map((x) => x as JsonSchemaProps) : [];
}

export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ak = Object.keys(a);
  return ak.length === Object.keys(b).length && ak.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

export function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
