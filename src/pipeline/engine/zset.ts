// Z-sets (spec §2): documents with integer multiplicities, identified by canonical JSON.

import { canon, type Doc } from '../../util/json-value.js';

export interface Entry {
  readonly key: string;
  readonly doc: Doc;
  count: number;
}

export class ZSet implements Iterable<Entry> {
  private readonly entries = new Map<string, Entry>();

  static of(items: Iterable<Entry>): ZSet {
    const z = new ZSet();
    for (const e of items) z.add(e.key, e.doc, e.count);
    return z;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  /** Adds `count` copies; an entry whose count reaches zero disappears. */
  add(key: string, doc: Doc, count: number): void {
    if (count === 0) return;
    const e = this.entries.get(key);
    if (e === undefined) {
      this.entries.set(key, { key, doc, count });
      return;
    }
    e.count += count;
    if (e.count === 0) this.entries.delete(key);
  }

  addDoc(doc: Doc, count: number): void {
    this.add(canon(doc), doc, count);
  }

  /** after − before, without copying either. */
  static diff(after: ZSet, before: ZSet): ZSet {
    const out = new ZSet();
    for (const e of after) out.add(e.key, e.doc, e.count - (before.get(e.key)?.count ?? 0));
    for (const e of before) if (after.get(e.key) === undefined) out.add(e.key, e.doc, -e.count);
    return out;
  }

  [Symbol.iterator](): Iterator<Entry> {
    return this.entries.values();
  }
}
