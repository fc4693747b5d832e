/** JSON equality (key order ignored, undefined members ignored), for "write only on a difference". */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => jsonEqual(ra[k], rb[k]));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The smallest JSON merge patch (RFC 7386) that turns `current` into `desired`. With `prune`, members
 * of `current` that `desired` lacks are nulled (a controller that owns a whole stanza, like status);
 * without it only the members `desired` names are set (a `null` among them removes that member).
 * Undefined when nothing differs.
 */
export function mergePatchFrom(
  current: unknown,
  desired: Record<string, unknown>,
  prune: boolean,
): Record<string, unknown> | undefined {
  const cur = isPlainObject(current) ? current : {};
  const patch: Record<string, unknown> = {};
  for (const [k, want] of Object.entries(desired)) {
    if (want === undefined) continue;
    const have = cur[k];
    if (want === null && (have === undefined || have === null)) continue; // already absent
    if (isPlainObject(want) && isPlainObject(have)) {
      const sub = mergePatchFrom(have, want, prune);
      if (sub) patch[k] = sub;
    } else if (!jsonEqual(have, want)) {
      patch[k] = want;
    }
  }
  if (prune) for (const k of Object.keys(cur)) if (cur[k] !== undefined && desired[k] === undefined) patch[k] = null;
  return Object.keys(patch).length ? patch : undefined;
}
