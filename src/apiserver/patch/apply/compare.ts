import { listElements } from './elements.js';
import { FieldSet, fieldToken, type Token } from './fieldpath.js';
import type { ListTypeResolver } from './list-types.js';
import { bothEmpty } from './shape.js';
import { deepEqual, isJsonObject, type JsonValue } from '../strategic/json.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/**
 * Field-level diff of two objects (structured-merge-diff's Compare). Leaves are
 * scalars and atomic values; an object, list or element that appears or
 * disappears as a whole is recorded too, which is where the `".": {}` of an
 * Update manager's entry comes from.
 */
export function compareObjects(
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  resolver: ListTypeResolver,
): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, [], [], c, resolver);
  return c;
}

// Helpers are top-level functions, not closures inside walk: walk runs once per field of every
// write, and each closure created there costs an allocation (plus a name helper under tsx).
function walk(
  l: JsonValue | undefined,
  r: JsonValue | undefined,
  path: Token[],
  schemaPath: string[],
  c: Comparison,
  resolver: ListTypeResolver,
): void {
  if (l === undefined && r === undefined) return;
  // A null list or map is an empty one to structured-merge-diff's typed values, and present: a zero
  // value's nil containers (null) beside a create's list make each element "added", not the list.
  if (l === null && isContainer(r)) l = Array.isArray(r) ? [] : {};
  else if (r === null && isContainer(l)) r = Array.isArray(l) ? [] : {};
  const lMap = l === undefined || isJsonObject(l);
  const rMap = r === undefined || isJsonObject(r);
  if (lMap && rMap) {
    if (bothEmpty(l, r) || (path.length > 0 && resolver.mapType?.(schemaPath) === 'atomic')) return leaf(l, r, path, c);
    const lo = (l ?? {}) as Record<string, JsonValue>;
    const ro = (r ?? {}) as Record<string, JsonValue>;
    // A write usually touches one top-level part (status, or spec): an equal part has no changes to
    // find, and one deepEqual is far cheaper than walking it field by field. Only near the root, so
    // a changed deep tree is not compared again at every level.
    if (path.length < 2 && l !== undefined && r !== undefined && deepEqual(l, r)) return;
    for (const k of new Set([...Object.keys(lo), ...Object.keys(ro)])) {
      walk(lo[k], ro[k], [...path, fieldToken(k)], [...schemaPath, k], c, resolver);
    }
    return wholeNode(l, r, path, c);
  }

  if ((l === undefined || Array.isArray(l)) && (r === undefined || Array.isArray(r))) {
    const type = resolver(schemaPath);
    if (type === 'atomic' || bothEmpty(l, r)) return leaf(l, r, path, c);
    const li = elementIndex(l, type, path);
    const ri = elementIndex(r, type, path);
    for (const t of new Set([...li.keys(), ...ri.keys()]))
      walk(li.get(t), ri.get(t), [...path, t], schemaPath, c, resolver);
    return wholeNode(l, r, path, c);
  }

  leaf(l, r, path, c);
}

const isContainer = (v: JsonValue | undefined): boolean => typeof v === 'object' && v !== null;

function leaf(l: JsonValue | undefined, r: JsonValue | undefined, path: Token[], c: Comparison): void {
  if (path.length === 0) return;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!deepEqual(l, r)) c.modified.insert(path);
}

function wholeNode(l: JsonValue | undefined, r: JsonValue | undefined, path: Token[], c: Comparison): void {
  if (path.length === 0) return;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

function elementIndex(
  list: JsonValue[] | undefined,
  type: ReturnType<ListTypeResolver>,
  path: Token[],
): Map<Token, JsonValue> {
  return new Map(
    listElements(list ?? [], type, false, path)
      .filter((e) => !e.duplicate)
      .map((e) => [e.token, e.value]),
  );
}
