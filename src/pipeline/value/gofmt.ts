// Go's fmt renderings that leak into documents: `%v` of a float64, and the `%!verb(type=value)`
// text Go prints for a mismatched verb. The original puts these into strings built from floats
// (`@string`, `@concat`) and into `@unwind` names; we reproduce them so names stay compatible.

import { isInt, isMap, isNil } from '../../util/json-value.js';

/** Go `%v` of a float64: shortest digits, `%e` form when the exponent is < -4 or >= 6. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // toExponential() without an argument yields the shortest round-trip digits.
  const [mant, expStr] = f.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const abs = Math.abs(exp);
    return `${mant}e${sign}${abs < 10 ? '0' : ''}${abs}`;
  }
  return String(f);
}

/** Go `%v` of a JSON value, as used when label values are stringified. */
export function goValue(v: unknown): string {
  if (isNil(v)) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return isInt(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

function goTypeName(v: unknown): string {
  if (typeof v === 'number') return isInt(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  return 'string';
}

/** What Go prints for `%<verb>` given a value of the wrong type, e.g. `%!d(float64=1.5)`. */
export function goBadVerb(verb: string, v: unknown): string {
  if (isNil(v)) return `%!${verb}(<nil>)`;
  return `%!${verb}(${goTypeName(v)}=${goValue(v)})`;
}

/** Go `%s` of any value. */
export function goSprintS(v: unknown): string {
  return typeof v === 'string' ? v : goBadVerb('s', v);
}
