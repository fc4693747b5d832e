// Go-flavoured views of JSON-like JavaScript values: truthiness, %v printing, comparison.

import { FunctionCallError, PositionedError } from './errors.js';

export type PlainMap = Record<string, unknown>;

/**
 * The value of a field chain that ran into a missing key (or a nil in the middle). It is not an
 * error yet: `default`, `empty`, `coalesce`, `hasKey`, `required`, `and`/`or`/`not` and `if`/`with`
 * read it as nil. Anything else that touches it calls `missingError`, which names the whole path.
 */
export class Missing {
  constructor(
    readonly pos: number,
    readonly path: string,
    readonly reason: string,
  ) {}
}

export function missingError(m: Missing): PositionedError {
  return new PositionedError(m.pos, `${m.reason} at ${m.path}`);
}

export function isMap(v: unknown): v is PlainMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Missing);
}

export function isNil(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

/** Own enumerable keys in Go's map order (sorted), which `range`, `keys` and printing all use. */
export function sortedKeys(m: PlainMap): string[] {
  return Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Reads a key without ever reaching the prototype (`.constructor` is a missing key, not Function). */
export function ownValue(m: PlainMap, key: string): { found: boolean; value: unknown } {
  return Object.hasOwn(m, key) ? { found: true, value: m[key] } : { found: false, value: undefined };
}

/** Go's `truth`: false, 0, nil, "" and empty arrays/maps are false. */
export function truth(v: unknown): boolean {
  if (v instanceof Missing || isNil(v)) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

/**
 * Integers (which is what YAML/JSON whole numbers are here) print in full, so replicas 3 is "3"
 * and 1000000 is not Go's "1e+06". Other numbers follow Go's shortest %g: exponent form when the
 * decimal exponent is below -4 or at least 6 (1.2e-05, 1.2345675e+06), two-digit exponents.
 */
export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (Object.is(n, -0)) return '0';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** fmt's %v: integers without a decimal point, slices as [a b], maps as map[k:v] with sorted keys. */
export function formatValue(v: unknown, nilText = '<nil>'): string {
  if (isNil(v)) return nilText;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => formatValue(x)).join(' ')}]`;
  if (isMap(v))
    return `map[${sortedKeys(v)
      .map((k) => `${k}:${formatValue(v[k])}`)
      .join(' ')}]`;
  return String(v);
}

export function typeName(v: unknown): string {
  if (isNil(v)) return 'nil';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float64';
  if (Array.isArray(v)) return 'slice';
  if (isMap(v)) return 'map';
  return typeof v;
}

type Basic = 'number' | 'string' | 'boolean';

function basicKind(v: unknown, fn: string): Basic {
  const t = typeof v;
  if (t === 'number' || t === 'string' || t === 'boolean') return t;
  throw new FunctionCallError(`${fn}: non-comparable type ${typeName(v)}`);
}

/** Go's `eq` for one pair: nil equals only nil; mixing kinds is an error, as in Go. */
export function goEqual(a: unknown, b: unknown, fn = 'eq'): boolean {
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (basicKind(a, fn) !== basicKind(b, fn)) {
    throw new FunctionCallError(`${fn}: incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
  }
  return a === b;
}

export function goLess(a: unknown, b: unknown, fn: string): boolean {
  const ka = basicKind(a, fn);
  const kb = basicKind(b, fn);
  if (ka === 'boolean' || kb === 'boolean') throw new FunctionCallError(`${fn}: invalid type for comparison: bool`);
  if (ka !== kb)
    throw new FunctionCallError(`${fn}: incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
  return (a as number | string) < (b as number | string);
}
