// apimachinery's equality.Semantic.DeepEqual over two JSON forms of one Go type, told by the vendored
// Go struct facts (go-fields.json) which fields are pointers: a pointer field that is set, even to its
// zero value (`adminAccess: false`, `inlineVolumeSpec: {}`), differs from one left out, while a plain
// field left out equals its zero value. Fields of types without Go facts compare as the untyped rule
// (validation's semanticEqual) does, which `untyped` is.
import protobuf from 'protobufjs';
import type { JsonValue } from '../registry/types.js';
import { load } from './descriptors.js';

type Untyped = (a: JsonValue | undefined, b: JsonValue | undefined) => boolean;

const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
const isMap = (v: JsonValue | undefined): v is Record<string, JsonValue> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function equalAs(t: protobuf.Type, a: JsonValue | undefined, b: JsonValue | undefined, untyped: Untyped): boolean {
  const go = load().goFields[t.fullName.replace(/^\./, '')];
  if (!go || !isMap(a) || !isMap(b)) return untyped(a, b);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const fact = go.find((g) => g[2] === key);
    const field = t.fields[key];
    if (!fact || !field) {
      if (!untyped(a[key], b[key])) return false;
      continue;
    }
    if (fact[3].startsWith('*') && set(a[key]) !== set(b[key])) return false;
    field.resolve();
    const nested = field.resolvedType instanceof protobuf.Type && !field.map ? field.resolvedType : undefined;
    if (!nested) {
      if (!untyped(a[key], b[key])) return false;
    } else if (field.repeated) {
      const xs = Array.isArray(a[key]) ? a[key] : [];
      const ys = Array.isArray(b[key]) ? b[key] : [];
      if (xs.length !== ys.length || xs.some((x, i) => !equalAs(nested, x, ys[i], untyped))) return false;
    } else if (!equalAs(nested, a[key] ?? {}, b[key] ?? {}, untyped)) return false;
  }
  return true;
}

/** Semantic.DeepEqual of two values of the message `fullName` (e.g. k8s.io.api.resource.v1.ResourceClaimSpec). */
export function goSemanticEqual(
  fullName: string,
  a: JsonValue | undefined,
  b: JsonValue | undefined,
  untyped: Untyped,
): boolean {
  const t = load().root.lookup(fullName);
  return t instanceof protobuf.Type ? equalAs(t, a, b, untyped) : untyped(a, b);
}
