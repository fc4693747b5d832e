import { isDeepStrictEqual } from 'node:util';
import { ApiSchemaError } from './errors.js';

/**
 * Turns the JSON Schema that zod generates into a Kubernetes *structural* schema, the only kind a
 * CRD may carry: every node typed, no $ref, no `additionalProperties: false`, no unions that
 * declare types. What Kubernetes cannot say is left to `validateFlow`, which runs the zod schema
 * itself; the CRD schema only has to be a faithful, looser outline of it.
 *
 * Unknown keywords throw instead of being dropped, so a new zod construct in flow.ts fails the
 * generator (and its test) rather than silently producing a CRD that accepts too much.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface StructuralSchema {
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  enum?: JsonValue[];
  default?: JsonValue;
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maximum?: number;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  properties?: Record<string, StructuralSchema>;
  required?: string[];
  additionalProperties?: StructuralSchema;
  items?: StructuralSchema;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-embedded-resource'?: true;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
}

type Node = { [key: string]: unknown };

const COPIED = [
  'format',
  'default',
  'nullable',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
] as const;
const DROPPED = new Set(['$schema', 'title', 'propertyNames', 'examples', 'id']);
const HANDLED = new Set<string>([
  ...COPIED,
  'description',
  'type',
  'enum',
  'const',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
]);
const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
const PRESERVE: StructuralSchema = { 'x-kubernetes-preserve-unknown-fields': true };

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(path: string, what: string): never {
  throw new ApiSchemaError(
    'NotStructural',
    `cannot express ${what} at ${path || '<root>'} in a Kubernetes structural schema`,
  );
}

export function toStructuralSchema(schema: unknown): StructuralSchema {
  return convert(schema, '');
}

function convert(raw: unknown, path: string): StructuralSchema {
  if (!isNode(raw)) return fail(path, `a non-object schema (${JSON.stringify(raw)})`);
  for (const key of Object.keys(raw)) {
    if (!HANDLED.has(key) && !DROPPED.has(key) && !key.startsWith('x-kubernetes-')) fail(path, `"${key}"`);
  }
  const described = (s: StructuralSchema): StructuralSchema =>
    typeof raw.description === 'string' ? { description: raw.description, ...s } : s;
  const union = (raw.anyOf ?? raw.oneOf) as unknown;
  if (union !== undefined) return withExtensions(described(convertUnion(union, path)), raw);
  // z.unknown() / z.any() arrive as `{}`: any JSON value, kept as written.
  if (raw.type === undefined) return withExtensions(described({ ...PRESERVE }), raw);
  if (typeof raw.type !== 'string' || !TYPES.has(raw.type)) return fail(path, `type ${JSON.stringify(raw.type)}`);

  // description first, as controller-gen writes it, so each node of the YAML reads top-down.
  const out: StructuralSchema = typeof raw.description === 'string' ? { description: raw.description } : {};
  out.type = raw.type as NonNullable<StructuralSchema['type']>;
  for (const key of COPIED) if (raw[key] !== undefined) (out as Node)[key] = raw[key];
  copyEnum(raw, out);
  // zod adds a long regex for every string format; Kubernetes checks the format itself, so the
  // regex would only repeat it less readably.
  if (typeof raw.pattern === 'string' && raw.format === undefined) out.pattern = raw.pattern;
  copyBounds(raw, out);
  if (out.type === 'object') convertObject(raw, out, path);
  if (out.type === 'array') {
    if (!isNode(raw.items)) return fail(path, 'an array without a single item schema');
    out.items = convert(raw.items, `${path}.items`);
  }
  return withExtensions(out, raw);
}

function copyEnum(raw: Node, out: StructuralSchema): void {
  if (raw.const !== undefined) out.enum = [raw.const as JsonValue];
  else if (Array.isArray(raw.enum)) out.enum = [...(raw.enum as JsonValue[])];
}

/** zod writes ±Number.MAX_SAFE_INTEGER on every int; those bounds say nothing to a reader. */
function copyBounds(raw: Node, out: StructuralSchema): void {
  for (const [key, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    const bound = raw[key];
    const ex = raw[exclusive];
    // Draft 2020-12 writes an exclusive bound as a number; OpenAPI 3.0 (and Kubernetes) as a flag.
    if (typeof ex === 'number') {
      out[key] = ex;
      out[exclusive] = true;
    } else if (typeof bound === 'number' && Math.abs(bound) !== Number.MAX_SAFE_INTEGER) {
      out[key] = bound;
      if (ex === true) out[exclusive] = true;
    }
  }
}

function convertObject(raw: Node, out: StructuralSchema, path: string): void {
  const props = isNode(raw.properties) ? raw.properties : {};
  const names = Object.keys(props);
  if (names.length) {
    out.properties = {};
    for (const name of names) out.properties[name] = convert(props[name], `${path}.${name}`);
  }
  if (Array.isArray(raw.required) && raw.required.length) out.required = raw.required.map(String);
  const ap = raw.additionalProperties;
  if (ap === undefined || ap === false) return;
  // Kubernetes forbids additionalProperties next to properties: a passthrough object (known fields
  // plus anything) keeps unknown fields instead; a record (no properties) is a typed map.
  if (names.length) out['x-kubernetes-preserve-unknown-fields'] = true;
  else if (ap === true) out['x-kubernetes-preserve-unknown-fields'] = true;
  else out.additionalProperties = convert(ap, `${path}.additionalProperties`);
}

function withExtensions(out: StructuralSchema, raw: Node): StructuralSchema {
  for (const [key, value] of Object.entries(raw)) if (key.startsWith('x-kubernetes-')) (out as Node)[key] = value;
  return out;
}

/**
 * Object branches (a discriminated union) merge into one object: the union of their properties,
 * the discriminator's constants joined into one enum, only the fields every branch requires kept
 * as required. Scalar branches of one type merge their enums. Anything else — a string-or-object
 * field — cannot be typed structurally and keeps whatever it is given.
 */
function convertUnion(union: unknown, path: string): StructuralSchema {
  if (!Array.isArray(union) || union.length === 0) return fail(path, 'an empty union');
  const branches = union.map((b, i) => convert(b, `${path}.anyOf[${i}]`));
  const types = new Set(branches.map((b) => b.type));
  if (types.size !== 1 || types.has(undefined)) return { ...PRESERVE };
  const [first, ...rest] = branches as [StructuralSchema, ...StructuralSchema[]];
  return rest.reduce((a, b) => mergeSchemas(a, b, path), first);
}

/** Branches may document a shared field each in their own words; the merged field keeps both. */
function mergeDescriptions(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined || a === b) return a ?? b;
  return `${a} ${b}`;
}

function mergeSchemas(a: StructuralSchema, b: StructuralSchema, path: string): StructuralSchema {
  const { description: da, ...restA } = a;
  const { description: db, ...restB } = b;
  const description = mergeDescriptions(da, db);
  const described = (s: StructuralSchema): StructuralSchema => (description === undefined ? s : { description, ...s });
  if (isDeepStrictEqual(restA, restB)) return described(restA);
  if (restA.type === 'object' && restB.type === 'object' && (restA.properties || restB.properties)) {
    const { properties: pa, required: ra, ...shellA } = restA;
    const { properties: pb, required: rb, ...shellB } = restB;
    if (!isDeepStrictEqual(shellA, shellB))
      fail(path, `two different objects for one field (${JSON.stringify(a)} and ${JSON.stringify(b)})`);
    const properties: Record<string, StructuralSchema> = { ...pa };
    for (const [name, s] of Object.entries(pb ?? {})) {
      const mine = properties[name];
      properties[name] = mine === undefined ? s : mergeSchemas(mine, s, `${path}.${name}`);
    }
    const merged: StructuralSchema = { ...shellA, properties };
    const required = (ra ?? []).filter((r) => rb?.includes(r));
    if (required.length) merged.required = required;
    return described(merged);
  }
  const { enum: ea, ...scalarA } = restA;
  const { enum: eb, ...scalarB } = restB;
  if (ea && eb && isDeepStrictEqual(scalarA, scalarB)) {
    return described({ ...scalarA, enum: [...ea, ...eb.filter((v) => !ea.some((x) => isDeepStrictEqual(x, v)))] });
  }
  return fail(path, `two different schemas for one field (${JSON.stringify(a)} and ${JSON.stringify(b)})`);
}
