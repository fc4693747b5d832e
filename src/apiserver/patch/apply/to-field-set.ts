import { listElements } from './elements.js';
import { FieldSet, fieldToken, type Token } from './fieldpath.js';
import type { ListTypeResolver } from './list-types.js';
import { isEmptyContainer } from './shape.js';
import { isJsonObject, type JsonValue } from '../strategic/json.js';

/**
 * The fields an apply configuration claims (structured-merge-diff's
 * ToFieldSet): every scalar, every atomic list/object as one leaf, and every
 * set/map list element itself (the `".": {}` of a `k:`/`v:` entry). Empty
 * objects and lists count as leaves so `emptyDir: {}` is owned like any value.
 */
export function appliedFieldSet(config: JsonValue, resolver: ListTypeResolver): FieldSet {
  const set = new FieldSet();
  walk(config, [], [], set, resolver);
  return set;
}

function walk(v: JsonValue, path: Token[], schemaPath: string[], set: FieldSet, resolver: ListTypeResolver): void {
  if (path.length > 0 && isEmptyContainer(v)) {
    set.insert(path);
    return;
  }
  if (isJsonObject(v)) {
    if (path.length > 0 && resolver.mapType?.(schemaPath) === 'atomic') {
      set.insert(path);
      return;
    }
    for (const [k, child] of Object.entries(v))
      walk(child, [...path, fieldToken(k)], [...schemaPath, k], set, resolver);
    return;
  }
  if (Array.isArray(v)) {
    const type = resolver(schemaPath);
    if (type === 'atomic') {
      set.insert(path);
      return;
    }
    for (const el of listElements(v, type, true, path)) {
      const elementPath = [...path, el.token];
      walk(el.value, elementPath, schemaPath, set, resolver);
      set.insert(elementPath);
    }
    return;
  }
  set.insert(path);
}
