// Reading OpenAPI v3 schemas (a CRD's openAPIV3Schema, kube-apiserver's documents) defensively: a
// schema node that is not what OpenAPI says it should be means "type unknown", never a crash, and
// `$ref` chains are followed a bounded number of hops so a cycle cannot hang the checker.

import { BOOLEAN, INTEGER, NUMBER, STRING, UNKNOWN, type Field, type ObjectTy, type Ty } from './types.js';

export type Json = Record<string, unknown>;

export interface Schema {
  node: Json;
  /** `components.schemas` of the document the node is in; `$ref`s resolve here. */
  defs: Json;
}

const REF = '#/components/schemas/';
const MAX_REF_HOPS = 16;
/** Nesting a template or manifest may walk through one schema before the rest is "type unknown". */
export const MAX_DEPTH = 64;

export function isJson(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function refOf(node: Json): string | undefined {
  if (typeof node.$ref === 'string') return node.$ref;
  const all = node.allOf;
  if (Array.isArray(all) && all.length === 1 && isJson(all[0]) && typeof all[0].$ref === 'string') return all[0].$ref;
  return undefined;
}

/** The schema a node stands for once its `$ref` (or v3's `allOf: [{$ref}]`) is followed. */
export function resolve(s: Schema): Schema | undefined {
  let node = s.node;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    const ref = refOf(node);
    if (ref === undefined) return { node, defs: s.defs };
    const target = ref.startsWith(REF) ? s.defs[ref.slice(REF.length)] : undefined;
    if (!isJson(target)) return undefined;
    node = target;
  }
  return undefined;
}

export function child(s: Schema, node: unknown): Schema | undefined {
  return isJson(node) ? resolve({ node, defs: s.defs }) : undefined;
}

export type SchemaKind = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'unknown';

export function kindOf(s: Schema): SchemaKind {
  const n = s.node;
  if (n['x-kubernetes-int-or-string'] === true || n.anyOf !== undefined || n.oneOf !== undefined) return 'unknown';
  switch (n.type) {
    case 'object':
    case 'array':
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return n.type;
    case undefined:
      if (isJson(n.properties)) return 'object';
      if (n.items !== undefined) return 'array';
      return 'unknown';
    default:
      return 'unknown';
  }
}

export function properties(s: Schema): Json {
  return isJson(s.node.properties) ? s.node.properties : {};
}

/** By schema node: every manifest of a kind asks for the same nodes' required fields. */
const required = new WeakMap<Json, ReadonlySet<string>>();
const NONE_REQUIRED: ReadonlySet<string> = new Set();

export function requiredOf(s: Schema): ReadonlySet<string> {
  let set = required.get(s.node);
  if (!set) {
    const r = s.node.required;
    set = Array.isArray(r) ? new Set(r.filter((x): x is string => typeof x === 'string')) : NONE_REQUIRED;
    required.set(s.node, set);
  }
  return set;
}

export function preservesUnknown(s: Schema): boolean {
  return s.node['x-kubernetes-preserve-unknown-fields'] === true;
}

/** additionalProperties: a schema for every other key, `any` for anything, null when closed. */
export function additional(s: Schema): Schema | 'any' | null {
  const a = s.node.additionalProperties;
  if (a === true) return 'any';
  if (isJson(a)) return child(s, a) ?? 'any';
  if (preservesUnknown(s)) return 'any';
  // An object schema that lists no properties at all (RawExtension, FieldsV1, a bare `type: object`) takes anything.
  return isJson(s.node.properties) ? null : 'any';
}

/** The checker's view of a schema; objects are read field by field as templates walk into them. */
export function tyOf(s: Schema | undefined, what: string, depth = 0): Ty {
  if (!s || depth > MAX_DEPTH) return UNKNOWN;
  switch (kindOf(s)) {
    case 'string':
      return STRING;
    case 'integer':
      return INTEGER;
    case 'number':
      return NUMBER;
    case 'boolean':
      return BOOLEAN;
    case 'array': {
      const items = child(s, s.node.items);
      let cached: Ty | undefined;
      return {
        kind: 'array',
        get items(): Ty {
          return (cached ??= tyOf(items, what, depth + 1));
        },
      };
    }
    case 'object':
      return objectTy(s, what, depth);
    default:
      return UNKNOWN;
  }
}

function objectTy(s: Schema, what: string, depth: number): ObjectTy {
  const props = properties(s);
  const required = requiredOf(s);
  const fields = new Map<string, Field>();
  const extra = additional(s);
  return {
    kind: 'object',
    what,
    fieldNames: () => Object.keys(props),
    field(name) {
      if (!Object.hasOwn(props, name)) return undefined;
      let f = fields.get(name);
      if (!f) {
        const sub = child(s, props[name]);
        const mayBeAbsent = !required.has(name) && !(sub && sub.node.default !== undefined);
        f = { ty: tyOf(sub, what, depth + 1), mayBeAbsent };
        fields.set(name, f);
      }
      return f;
    },
    rest: extra === null ? null : extra === 'any' ? UNKNOWN : tyOf(extra, what, depth + 1),
  };
}
