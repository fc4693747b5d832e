import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { base64Error } from './go-base64.js';
import { goTimeError } from './go-time.js';
import { QUANTITY_FORMAT_ERROR, quantityFormatError } from '../schema/quantity-format.js';

/**
 * What kube-apiserver's decoding of a JSON body into a built-in kind's Go types refuses before any
 * validation runs (sigs.k8s.io/json, Go's encoding/json fork: UnmarshalTypeError; []byte's base64;
 * metav1.Time and MicroTime's RFC 3339 layouts; int32 and int64 ranges), judged by the vendored
 * OpenAPI schema that describes those types. Returns Go's text of the first such error, in document
 * order as the decoder meets them, or undefined. The caller prefixes `<Kind> in version …`.
 */
export function goDecodeError(
  obj: JsonObject,
  root: JsonObject,
  schemas: JsonObject,
  rootType: string,
): string | undefined {
  const ctx: Ctx = { schemas };
  return walk(ctx, obj, { schema: root, ref: rootType }, rootType, []);
}

interface Ctx {
  schemas: JsonObject;
}

/** A schema with the name of the Go type it came from (the last `$ref` followed). */
interface Typed {
  schema: JsonObject;
  ref: string | undefined;
}

const REF = '#/components/schemas/';

function refOf(s: JsonObject): string | undefined {
  if (typeof s.$ref === 'string') return s.$ref;
  const all = s.allOf;
  return Array.isArray(all) && isObject(all[0]) && typeof all[0].$ref === 'string' ? all[0].$ref : undefined;
}

function resolve(ctx: Ctx, s: JsonObject): Typed {
  let cur = s;
  let ref: string | undefined;
  for (let r = refOf(cur); r?.startsWith(REF); r = refOf(cur)) {
    const target = ctx.schemas[r.slice(REF.length)];
    if (!isObject(target)) break;
    ref = r.slice(REF.length);
    cur = target;
  }
  return { schema: cur, ref };
}

/** `io.k8s.api.core.v1.PodSpec` → `v1.PodSpec`, as Go's reflect prints a named type. */
function goNamed(ref: string): string {
  const parts = ref.split('.');
  return parts.slice(-2).join('.');
}

const structName = (ref: string): string => ref.split('.').pop() ?? ref;

function goType(ctx: Ctx, t: Typed): string {
  const s = t.schema;
  if (t.ref && !['string', 'integer', 'boolean', 'number'].includes(String(s.type))) return goNamed(t.ref);
  if (t.ref?.endsWith('.Time') || t.ref?.endsWith('.MicroTime')) return goNamed(t.ref);
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return s.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return isObject(s.items) ? `[]${goType(ctx, resolve(ctx, s.items))}` : '[]interface {}';
    default:
      return isObject(s.additionalProperties)
        ? `map[string]${goType(ctx, resolve(ctx, s.additionalProperties))}`
        : 'map[string]interface {}';
  }
}

function jsonKind(v: JsonValue): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

const INT32 = 2 ** 31;

/** resource.Quantity's UnmarshalJSON: a number, or a string ParseQuantity takes. */
function quantityError(v: JsonValue): string | undefined {
  if (typeof v === 'number') return undefined;
  return typeof v === 'string' ? quantityFormatError(v) : QUANTITY_FORMAT_ERROR;
}

function walk(ctx: Ctx, v: JsonValue, at: Typed, struct: string, path: string[]): string | undefined {
  if (v === null) return undefined;
  const s = at.schema;
  const mismatch = (shown = jsonKind(v), type = goType(ctx, at)): string => {
    const field = path.length ? ` into Go struct field ${struct}.${path.join('.')}` : ' into Go value';
    return `json: cannot unmarshal ${shown}${field} of type ${type}`;
  };
  const ref = at.ref ?? '';
  if (ref.endsWith('.Quantity')) return quantityError(v);
  if (ref.endsWith('.RawExtension') || ref.endsWith('.JSON') || ref.endsWith('.FieldsV1')) return undefined;
  if (s.format === 'int-or-string') {
    // IntOrString.UnmarshalJSON: a string, else the value decoded into its int32.
    if (typeof v === 'string') return undefined;
    if (typeof v !== 'number') return mismatch(jsonKind(v), 'int32');
    return Number.isInteger(v) && Math.abs(v + 0.5) <= INT32 ? undefined : mismatch(`number ${v}`, 'int32');
  }
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') return mismatch();
      if (s.format === 'byte') return base64Error(v);
      if (ref.endsWith('.Time') || ref.endsWith('.MicroTime')) return goTimeError(v, ref.endsWith('.MicroTime'));
      return undefined;
    case 'integer':
      if (typeof v !== 'number') return mismatch();
      if (!Number.isInteger(v) || (s.format === 'int32' ? Math.abs(v + 0.5) > INT32 : !Number.isSafeInteger(v)))
        return mismatch(`number ${v}`);
      return undefined;
    case 'number':
      return typeof v === 'number' ? undefined : mismatch();
    case 'boolean':
      return typeof v === 'boolean' ? undefined : mismatch();
    case 'array': {
      if (!Array.isArray(v)) return mismatch();
      if (!isObject(s.items)) return undefined;
      const items = resolve(ctx, s.items);
      for (const item of v) {
        const e = walk(ctx, item, items, struct, path);
        if (e) return e;
      }
      return undefined;
    }
    default:
      return walkObject(ctx, v, at, struct, path, mismatch);
  }
}

function walkObject(
  ctx: Ctx,
  v: JsonValue,
  at: Typed,
  struct: string,
  path: string[],
  mismatch: () => string,
): string | undefined {
  const s = at.schema;
  const props = isObject(s.properties) ? s.properties : undefined;
  const extra = isObject(s.additionalProperties) ? resolve(ctx, s.additionalProperties) : undefined;
  if (!props && !extra) return undefined;
  if (!isObject(v)) return mismatch();
  // A named struct starts a new `Struct.` prefix in Go's text; a map keeps the one it is in.
  const inner = props && at.ref ? structName(at.ref) : struct;
  for (const [k, child] of Object.entries(v)) {
    const p = props ? props[k] : undefined;
    const next = isObject(p) ? resolve(ctx, p) : extra;
    if (!next) continue;
    const e = walk(ctx, child, next, inner, props ? [...path, k] : path);
    if (e) return e;
  }
  return undefined;
}
