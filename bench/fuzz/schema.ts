// Where a kind's object can be mutated, read from kube-apiserver's own OpenAPI v3 document (the
// vendored one the embedded server serves): every value of the seed object with its schema, and
// every property the schema declares on an object of the seed that the seed leaves out.
import { isObject } from '../../src/apiserver/objects/meta.js';
import { gvPath } from '../../src/apiserver/openapi/vendor-files.js';
import { vendoredOpenApi } from '../../src/apiserver/openapi/vendored.js';
import type { JsonObject, JsonValue } from '../../src/apiserver/registry/types.js';
import type { FuzzKind } from './kinds.js';

export type FieldPath = (string | number)[];

export interface Site {
  path: FieldPath;
  schema: JsonObject;
  /** The seed's value, absent for a property the seed leaves out. */
  value?: JsonValue;
  /** The parent object lists it in `required`. */
  required: boolean;
}

export interface KindSchemas {
  root: JsonObject;
  schemas: JsonObject;
}

const REF = '#/components/schemas/';
const docs = new Map<string, JsonObject>();

export function kindSchemas(k: FuzzKind): KindSchemas {
  const path = gvPath(k);
  let schemas = docs.get(path);
  if (!schemas) {
    const text = vendoredOpenApi.v3Text(path);
    if (text === undefined) throw new Error(`no vendored OpenAPI document for ${path}`);
    schemas = (JSON.parse(text) as { components: { schemas: JsonObject } }).components.schemas;
    docs.set(path, schemas);
  }
  for (const s of Object.values(schemas)) {
    if (!isObject(s)) continue;
    const gvks = s['x-kubernetes-group-version-kind'];
    if (
      Array.isArray(gvks) &&
      gvks.some((g) => isObject(g) && g.group === k.group && g.version === k.version && g.kind === k.kind)
    ) {
      return { root: s, schemas };
    }
  }
  throw new Error(`no schema for ${k.group}/${k.version} ${k.kind}`);
}

export function resolve(s: JsonObject, schemas: JsonObject): JsonObject {
  const all = s.allOf;
  const ref = typeof s.$ref === 'string' ? s.$ref : Array.isArray(all) && isObject(all[0]) ? all[0].$ref : undefined;
  if (typeof ref !== 'string' || !ref.startsWith(REF)) return s;
  const target = schemas[ref.slice(REF.length)];
  return isObject(target) ? resolve(target, schemas) : s;
}

/** The seed's values and the absent properties beside them; `status` and the server's metadata are left out. */
export function sitesOf(obj: JsonObject, ks: KindSchemas): Site[] {
  const sites: Site[] = [];
  const walk = (value: JsonValue, schema: JsonObject, path: FieldPath, required: boolean): void => {
    const s = resolve(schema, ks.schemas);
    if (path.length) sites.push({ path, schema: s, value, required });
    if (Array.isArray(value) && isObject(s.items)) {
      const items = s.items;
      for (const [i, v] of value.entries()) walk(v, items, [...path, i], false);
      return;
    }
    if (!isObject(value) || !isObject(s.properties)) return;
    const req = Array.isArray(s.required) ? s.required : [];
    for (const [name, p] of Object.entries(s.properties)) {
      if (!isObject(p) || (path.length === 0 && ['apiVersion', 'kind', 'status', 'metadata'].includes(name))) continue;
      const child = value[name];
      if (child === undefined)
        sites.push({ path: [...path, name], schema: resolve(p, ks.schemas), required: req.includes(name) });
      else walk(child, p, [...path, name], req.includes(name));
    }
  };
  walk(obj, ks.root, [], true);
  return sites;
}

/** The values an enum field takes, from its description ("Possible enum values:" or "One of A, B, C."). */
export function enumValues(s: JsonObject): string[] {
  const d = typeof s.description === 'string' ? s.description : '';
  const listed = [...d.matchAll(/ - `"([^"]+)"`/g)].map((m) => m[1] ?? '');
  if (listed.length) return listed;
  const oneOf = /One of ([A-Z][A-Za-z]+(?:, (?:or )?[A-Z][A-Za-z]+)+)/.exec(d);
  return oneOf?.[1] ? oneOf[1].split(/, (?:or )?/) : [];
}

export function typeOf(s: JsonObject): string {
  if (typeof s.type === 'string') return s.type;
  if (isObject(s.properties)) return 'object';
  return 'any';
}
