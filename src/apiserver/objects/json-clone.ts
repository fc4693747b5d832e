import type { JsonValue } from '../registry/types.js';

/**
 * A deep copy of a JSON value without recursion: structuredClone overflows V8's stack near 2,000
 * levels, and request bodies may nest deeper (kube-apiserver accepts 10,000). Properties set to
 * undefined are kept, as structuredClone keeps them.
 */
export function cloneJson<T extends JsonValue>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: JsonValue = Array.isArray(value) ? new Array<JsonValue>(value.length) : {};
  const pending: Array<[from: JsonValue, to: JsonValue]> = [[value, root]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, to] = next as [Record<string, JsonValue>, Record<string, JsonValue>];
    for (const k of Object.keys(from)) {
      const v = from[k]!;
      if (typeof v !== 'object' || v === null) {
        to[k] = v;
        continue;
      }
      const copy: JsonValue = Array.isArray(v) ? new Array<JsonValue>(v.length) : {};
      to[k] = copy;
      pending.push([v, copy]);
    }
  }
  return root as T;
}
