/**
 * Whether an upstream OpenAPI path is one the embedded server answers: a resource it serves, its
 * items, and the subresources `isServed` accepts. `/watch/…` paths (deprecated upstream, not served
 * here) and subresources such as `pods/{name}/exec` are not.
 */
export function servedPath(
  path: string,
  group: string,
  version: string,
  isServed: (plural: string, subresource: string | undefined) => boolean,
): boolean {
  const base = group ? `/apis/${group}/${version}/` : `/api/${version}/`;
  if (!path.startsWith(base)) return false;
  let parts = path.slice(base.length).split('/').filter(Boolean);
  if (parts.length === 0) return true; // the group-version's discovery document
  if (parts[0] === 'watch') return false;
  if (parts[0] === 'namespaces' && parts[1] === '{namespace}' && parts.length >= 3) parts = parts.slice(2);
  const [plural, name, subresource, ...extra] = parts;
  if (plural === undefined || extra.length || (name !== undefined && name !== '{name}')) return false;
  return isServed(plural, subresource);
}

/** The schema names `value` refers to with `$ref: <prefix><name>`, anywhere inside it. */
export function collectRefs(value: unknown, prefix: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith(prefix)) out.push(x.slice(prefix.length));
        else walk(x);
      }
    }
  };
  walk(value);
  return out;
}
