import { listElements } from './elements.js';
import { FieldSet } from './fieldpath.js';
import type { ListTypeResolver } from './list-types.js';
import { isEmptyContainer } from './shape.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../strategic/json.js';

const NOBODY = new FieldSet();

/**
 * Removes what the applying manager claimed last time (`last`) unless someone
 * still claims it (`kept`: the new configuration plus every other manager).
 * Containers emptied by the removal go too, unless they are claimed themselves.
 */
export function prune(
  value: JsonValue,
  last: FieldSet,
  kept: FieldSet,
  schemaPath: readonly string[],
  resolver: ListTypeResolver,
): JsonValue {
  if (isJsonObject(value)) {
    const out: JsonObject = { ...value };
    for (const token of last.tokens()) {
      if (!token.startsWith('f:')) continue;
      const name = token.slice(2);
      const before = out[name];
      if (before === undefined) continue;
      if (last.hasMember(token) && !kept.touches(token)) {
        delete out[name];
        continue;
      }
      const lastChild = last.child(token);
      if (!lastChild) continue;
      const after = prune(before, lastChild, kept.child(token) ?? NOBODY, [...schemaPath, name], resolver);
      if (isEmptyContainer(after) && !isEmptyContainer(before) && !kept.touches(token)) delete out[name];
      else out[name] = after;
    }
    return out;
  }
  if (Array.isArray(value)) {
    const type = resolver(schemaPath);
    if (type === 'atomic') return value;
    const out: JsonValue[] = [];
    for (const el of listElements(value, type, false, [])) {
      if (last.hasMember(el.token) && !kept.touches(el.token)) continue;
      const lastChild = last.child(el.token);
      out.push(lastChild ? prune(el.value, lastChild, kept.child(el.token) ?? NOBODY, schemaPath, resolver) : el.value);
    }
    return out;
  }
  return value;
}
