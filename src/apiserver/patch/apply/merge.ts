import { listElements } from './elements.js';
import type { Token } from './fieldpath.js';
import type { ListType, ListTypeResolver } from './list-types.js';
import { bothEmpty } from './shape.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../strategic/json.js';

/**
 * Live object merged with an apply configuration (structured-merge-diff's
 * Merge): objects merge field by field, set/map lists merge element by element,
 * atomic values and scalars come from the configuration. Nothing is removed
 * here; pruning is a separate step.
 */
export function mergeApplied(
  live: JsonValue | undefined,
  config: JsonValue | undefined,
  schemaPath: readonly string[],
  resolver: ListTypeResolver,
): JsonValue | undefined {
  if (config === undefined) return live;
  if (live === undefined) return config;
  if (isJsonObject(live) && isJsonObject(config)) {
    if (bothEmpty(live, config) || (schemaPath.length > 0 && resolver.mapType?.(schemaPath) === 'atomic'))
      return config;
    const out: JsonObject = { ...live };
    for (const [k, v] of Object.entries(config)) out[k] = mergeApplied(live[k], v, [...schemaPath, k], resolver)!;
    return out;
  }
  if (Array.isArray(live) && Array.isArray(config)) {
    const type = resolver(schemaPath);
    if (type === 'atomic' || bothEmpty(live, config)) return config;
    return mergeLists(live, config, type, schemaPath, resolver);
  }
  return config;
}

/**
 * Element order follows structured-merge-diff: the configuration's order wins
 * for the elements it names, and live-only elements stay where they were
 * relative to those. Duplicate live elements are kept untouched.
 */
function mergeLists(
  lhs: readonly JsonValue[],
  rhs: readonly JsonValue[],
  type: ListType,
  schemaPath: readonly string[],
  resolver: ListTypeResolver,
): JsonValue[] {
  const left = listElements(lhs, type, false, []).map((e, i) => ({
    id: e.duplicate ? `dup:${i}` : e.token,
    value: e.value,
  }));
  const right = listElements(rhs, type, false, [])
    .filter((e) => !e.duplicate)
    .map((e) => ({ id: e.token, value: e.value }));
  const lValues = new Map<Token, JsonValue>(left.map((e) => [e.id, e.value]));
  const rValues = new Map<Token, JsonValue>(right.map((e) => [e.id, e.value]));
  const shared = right.map((e) => e.id).filter((id) => lValues.has(id));
  let nextShared = shared.shift();

  const out: JsonValue[] = [];
  const emit = (id: Token): void => {
    out.push(mergeApplied(lValues.get(id), rValues.get(id), schemaPath, resolver)!);
  };
  let li = 0;
  let ri = 0;
  while (li < left.length || ri < right.length) {
    if (li < left.length && ri < right.length) {
      const id = left[li]!.id;
      if (id === right[ri]!.id) {
        emit(id);
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (rValues.has(id) && nextShared !== undefined && nextShared !== id) {
        li++;
        continue;
      }
    }
    if (li < left.length && !rValues.has(left[li]!.id)) {
      emit(left[li]!.id);
      li++;
      continue;
    }
    if (ri < right.length) {
      const id = right[ri]!.id;
      emit(id);
      ri++;
      if (nextShared === id) nextShared = shared.shift();
    } else {
      // Only shared live elements remain, and the configuration already emitted them.
      li++;
    }
  }
  return out;
}
