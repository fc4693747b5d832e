// Sprig's value conversions (strval, cast.ToInt64, cast.ToFloat64) over JavaScript values.
// Sprig swallows conversion errors and yields 0; so do these.

import { formatValue, isNil, truth } from './values.js';

/** sprig's strval: strings as-is, everything else as fmt %v (so nil is "<nil>"). */
export function strval(v: unknown): string {
  return typeof v === 'string' ? v : formatValue(v);
}

/** Text for string functions (upper, trim, indent...): like strval, but nil is "" rather than "<nil>". */
export function text(v: unknown): string {
  return isNil(v) ? '' : strval(v);
}

/** Go's strconv.ParseInt(s, 0, 64) after cast's trimZeroDecimal ("3.00" → "3"). */
function parseGoInt(s: string): number | null {
  const t = /^([+-]?\d+)\.0*$/.test(s) ? s.replace(/\.0*$/, '') : s;
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|[1-9][0-9_]*|0)$/.exec(t);
  if (!m) return null;
  const sign = m[1] === '-' ? -1 : 1;
  const body = (m[2] as string).replace(/_/g, '').toLowerCase();
  let n: number;
  if (body.startsWith('0x')) n = parseInt(body.slice(2), 16);
  else if (body.startsWith('0b')) n = parseInt(body.slice(2), 2);
  else if (body.startsWith('0o')) n = parseInt(body.slice(2), 8);
  else if (body.length > 1 && body.startsWith('0')) n = parseInt(body.slice(1), 8);
  else n = parseInt(body, 10);
  return Number.isFinite(n) ? sign * n : null;
}

export function toInt(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return parseGoInt(v) ?? 0;
  return 0;
}

export function toFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^[+-]?(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)([eE][+-]?\d+)?$/.test(v))
    return Number(v.replace(/_/g, ''));
  return 0;
}

/** strconv.Atoi: plain decimal only. */
export function atoi(v: unknown): number {
  const s = text(v);
  return /^[+-]?\d+$/.test(s) ? Number(s) : 0;
}

/** sprig's `empty` is Go truthiness inverted (structs aside, which JSON data has none of). */
export function isEmpty(v: unknown): boolean {
  return !truth(v);
}

/** sprig's strslice: a list's non-nil items as strings; nil is []; a scalar is a one-item list. */
export function strslice(v: unknown): string[] {
  if (isNil(v)) return [];
  if (Array.isArray(v)) return v.filter((x) => !isNil(x)).map(strval);
  return [strval(v)];
}
