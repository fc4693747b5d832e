/** Go template truthiness for `when:` results; the strings "false", "0" and "" are false too (a rendered text result). */
export function truthy(v: unknown): boolean {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    return s !== '' && s !== 'false' && s !== '0' && s !== '<no value>';
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}
