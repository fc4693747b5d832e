import { PatchError } from './errors.js';
import { describe, isJsonObject, isPrimitive, type JsonValue } from './json.js';
import { PATCH_DIRECTIVE } from './directives.js';

// Ordering rules of strategicpatch's normalizeElementOrder/mergeSortedSlice:
// items named by the patch (or by `$setElementOrder`) keep the patch's order,
// items only the server has keep their live order, and the two runs are
// interleaved using the live order wherever both sides know an item. Clients
// (kubectl apply) rely on this to reproduce the order of the file.

/** Identity of a list element: its merge-key value, or the scalar itself. */
function identity(item: JsonValue, key: string | undefined): JsonValue | undefined {
  if (key === undefined) return item;
  return isJsonObject(item) ? item[key] : undefined;
}

export function indexIn(list: readonly JsonValue[], item: JsonValue, key: string | undefined): number {
  const id = identity(item, key);
  if (id === undefined || !isPrimitive(id)) return -1;
  return list.findIndex((other) => identity(other, key) === id);
}

export function partitionByPresence(
  items: readonly JsonValue[],
  by: readonly JsonValue[],
  key: string | undefined,
): [present: JsonValue[], absent: JsonValue[]] {
  const present: JsonValue[] = [];
  const absent: JsonValue[] = [];
  for (const item of items) (indexIn(by, item, key) >= 0 ? present : absent).push(item);
  return [present, absent];
}

function sortByOrder(items: readonly JsonValue[], order: readonly JsonValue[], key: string | undefined): JsonValue[] {
  const ranked = items.map((item, i) => ({ item, i, at: indexIn(order, item, key) }));
  const known = ranked.filter((r) => r.at >= 0).sort((a, b) => a.at - b.at || a.i - b.i);
  const unknown = ranked.filter((r) => r.at < 0);
  return [...known, ...unknown].map((r) => r.item);
}

function mergeSorted(
  left: readonly JsonValue[],
  right: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  key: string | undefined,
): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]!);
    else if (j >= right.length) out.push(left[i++]!);
    else {
      const li = indexIn(serverOrder, left[i]!, key);
      const ri = indexIn(serverOrder, right[j]!, key);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]!);
      else out.push(right[j++]!);
    }
  }
  return out;
}

export function normalizeElementOrder(
  patchItems: readonly JsonValue[],
  serverOnly: readonly JsonValue[],
  patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  key: string | undefined,
): JsonValue[] {
  return mergeSorted(
    sortByOrder(serverOnly, serverOrder, key),
    sortByOrder(patchItems, patchOrder, key),
    serverOrder,
    key,
  );
}

/**
 * The patch list must be an ordered subsequence of `$setElementOrder`
 * (deletions aside); otherwise the two directives contradict each other.
 */
export function validateSetElementOrder(
  patchList: readonly JsonValue[] | undefined,
  order: readonly JsonValue[],
  key: string | undefined,
): void {
  if (!patchList || patchList.length === 0 || order.length === 0) return;
  const items = patchList.filter((el) => !(isJsonObject(el) && PATCH_DIRECTIVE in el));
  let p = 0;
  for (let o = 0; p < items.length && o < order.length; o++) {
    const id = identity(items[p]!, key);
    if (key !== undefined && id === undefined) {
      throw new PatchError(`map: ${describe(items[p])} does not contain declared merge key: ${key}`);
    }
    if (id === identity(order[o]!, key)) p++;
  }
  if (p < items.length) {
    throw new PatchError(
      `The order in patch list:\n${describe(patchList)}\n doesn't match $setElementOrder list:\n${describe(order)}\n`,
    );
  }
}
