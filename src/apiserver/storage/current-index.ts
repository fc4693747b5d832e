import type { StoredValue } from './types.js';

/**
 * The current value of every key, grouped into buckets (the key up to its fourth '/', i.e. one
 * resource type) so a list sorts only its own type, and only after that type changed.
 */
export class CurrentIndex {
  private readonly buckets = new Map<string, Bucket>();

  get(key: string): StoredValue | undefined {
    return this.buckets.get(bucketOf(key))?.values.get(key);
  }

  set(v: StoredValue): void {
    const name = bucketOf(v.key);
    let b = this.buckets.get(name);
    if (!b) {
      b = { values: new Map(), sorted: null };
      this.buckets.set(name, b);
    }
    if (!b.values.has(v.key)) b.sorted = null;
    b.values.set(v.key, v);
  }

  delete(key: string): void {
    const b = this.buckets.get(bucketOf(key));
    if (b?.values.delete(key)) b.sorted = null;
  }

  count(prefix: string): number {
    let n = 0;
    for (const b of this.bucketsFor(prefix)) {
      if (prefix.length <= bucketNameLength(prefix)) n += b.values.size;
      else for (const k of b.values.keys()) if (k.startsWith(prefix)) n++;
    }
    return n;
  }

  range(prefix: string, startAfter: string | undefined, limit: number): { items: StoredValue[]; more: boolean } {
    const items: StoredValue[] = [];
    for (const b of this.bucketsFor(prefix)) {
      const keys = sortedKeys(b);
      let i = lowerBound(keys, startAfter !== undefined && startAfter >= prefix ? startAfter : prefix);
      if (startAfter !== undefined && keys[i] === startAfter) i++;
      for (; i < keys.length; i++) {
        const k = keys[i]!;
        if (!k.startsWith(prefix)) break;
        if (items.length === limit) return { items, more: true };
        items.push(b.values.get(k)!);
      }
    }
    return { items, more: false };
  }

  private *bucketsFor(prefix: string): Iterable<Bucket> {
    const exact = this.buckets.get(bucketOf(prefix));
    if (exact && prefix.length >= bucketOf(prefix).length) {
      yield exact;
      return;
    }
    for (const name of [...this.buckets.keys()].sort()) if (name.startsWith(prefix)) yield this.buckets.get(name)!;
  }
}

interface Bucket {
  values: Map<string, StoredValue>;
  sorted: string[] | null;
}

function sortedKeys(b: Bucket): string[] {
  if (!b.sorted) b.sorted = [...b.values.keys()].sort();
  return b.sorted;
}

function lowerBound(keys: string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bucketNameLength(key: string): number {
  return bucketOf(key).length;
}

/** `/registry/apps/deployments/ns/name` → `/registry/apps/deployments/`. */
export function bucketOf(key: string): string {
  let slashes = 0;
  for (let i = 0; i < key.length; i++) {
    if (key.charCodeAt(i) === 47 && ++slashes === 4) return key.slice(0, i + 1);
  }
  return key;
}
