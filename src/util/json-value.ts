// Helpers over schemaless JSON values. Numbers follow one rule everywhere: an integral JS number
// plays the part of Go's int64, any other number the part of float64 (JS cannot keep `1.0` apart
// from `1` once JSON is parsed).

import { UtilError } from './errors.js';
export type Doc = Record<string, unknown>;

export function isMap(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isNil(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

export function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63;
}

/** A short type name for error messages, in the vocabulary of the spec. */
export function typeName(v: unknown): string {
  if (isNil(v)) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'number') return isInt(v) ? 'int' : 'float';
  if (typeof v === 'object') return 'map';
  return typeof v;
}

/** Short, bounded rendering of a value for error messages. */
export function show(v: unknown): string {
  let s: string;
  try {
    s = v === undefined ? 'null' : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function canonNumber(n: number): string {
  // JSON has no NaN/Infinity; they only need a stable, distinct identity here.
  return Number.isFinite(n) ? JSON.stringify(n) : `#${String(n)}`;
}

const quoted = new Map<string, string>();

/** JSON.stringify of a map key, memoised: documents repeat the same few keys endlessly. */
function quoteKey(k: string): string {
  let q = quoted.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quoted.size < 50_000) quoted.set(k, q);
  }
  return q;
}

function writeCanon(v: unknown, out: string[]): void {
  if (v === null || v === undefined) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'number':
      out.push(canonNumber(v));
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    default:
      break;
  }
  if (Array.isArray(v)) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(',');
      writeCanon(v[i], out);
    }
    out.push(']');
    return;
  }
  if (!isMap(v)) {
    out.push('null');
    return;
  }
  out.push('{');
  let first = true;
  for (const k of Object.keys(v).sort()) {
    const x = v[k];
    if (x === undefined) continue;
    out.push(first ? quoteKey(k) : `,${quoteKey(k)}`, ':');
    first = false;
    writeCanon(x, out);
  }
  out.push('}');
}

/**
 * Canonical JSON (map keys sorted): the identity of a document inside the engine. Two values
 * have the same canonical form iff they are deep-equal. Built with one join so the result is a
 * flat string: these are long-lived map keys, and `+=` leaves them as rope trees that cost
 * several times their length in memory.
 */
export function canon(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  const out: string[] = [];
  writeCanon(v, out);
  return out.join('');
}

const goEscapes: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * The bytes Go's `json.Marshal` would produce: compact, map keys sorted, `<>&` and U+2028/9
 * escaped. `@hash` and the mixed-type ordering of `@gather` depend on this exact text.
 */
export function goJson(v: unknown): string {
  return canonGo(v);
}

function canonGo(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => goEscapes[c] ?? c);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new UtilError('UnsupportedJsonValue', `json: unsupported value: ${String(v)}`);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonGo).join(',')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${canonGo(k)}:${canonGo(v[k])}`).join(',')}}`;
  }
  return canon(v);
}

/** Type-sensitive structural equality (Go `reflect.DeepEqual` over JSON values). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!(k in b) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** Deep copy of a JSON value; `undefined` map entries are dropped. */
export function deepClone<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepClone(x)) as T;
  if (isMap(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x !== undefined) out[k] = deepClone(x);
    }
    return out as T;
  }
  return v;
}

/** Code-point order, which is the byte order Go uses for strings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(i) as number;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** "int 3", "string \"x\"", "null": a value as error messages describe it. */
export function describe(v: unknown): string {
  return isNil(v) ? 'null' : `${typeName(v)} ${show(v)}`;
}

/**
 * Shallow copy of a map plus overrides. Written with Object.assign because V8 falls off a
 * performance cliff (tens of times slower) when a `{...spread}` literal is followed by new keys.
 */
export function copyMap(m: Doc, overrides?: Doc): Doc {
  const out: Doc = Object.assign({}, m);
  return overrides === undefined ? out : Object.assign(out, overrides);
}
