// apimachinery's equality.Semantic.DeepEqual as it sees decoded Go values: a field left out and the
// same field at its zero value (false, 0, "", an empty list or map, null) decode to the same struct,
// so an update that only spells out zero values changes nothing.
import type { JsonValue } from '../registry/types.js';

function isZero(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.values(v).every(isZero);
}

export function semanticEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}
