// Incremental @gather, maintained per group: an event touches only the groups of the documents
// it changes (the original regroups its whole accumulated input on every event; spec §8 item 11).
// Per touched group the work is O(log g) to update the sorted values plus O(g) to build the one
// output document, where g is the group's size.

import { txDelete, txSet, type Txn } from '../engine/txn.js';
import { ZSet, type Entry } from '../engine/zset.js';
import type { EvalOptions } from '../expressions/index.js';
import { compareGatherValues, gatherBuild, gatherExtract, type Extracted, type Gather } from '../stages/gather.js';
import { canon, type Doc } from '../../util/json-value.js';

interface Counted<T> {
  readonly item: T;
  count: number;
}

interface Group {
  readonly members: Map<string, Counted<Doc>>;
  readonly values: Map<string, Counted<unknown>>;
  /** Distinct value keys in output order. */
  readonly order: string[];
  /** Key of the member with the smallest canonical JSON, or null when it must be recomputed. */
  rep: string | null;
  out: { readonly key: string; readonly doc: Doc } | null;
}

function set<T extends object, K extends keyof T>(txn: Txn, obj: T, field: K, value: T[K]): void {
  const prev = obj[field];
  obj[field] = value;
  txn.record(() => (obj[field] = prev));
}

/** Adds `by` to a counted entry, creating or dropping it, with undo. */
function bump<T>(
  txn: Txn,
  map: Map<string, Counted<T>>,
  key: string,
  item: T,
  by: number,
): { created: boolean; gone: boolean } {
  const c = map.get(key);
  if (c === undefined) {
    txSet(txn, map, key, { item, count: by });
    return { created: true, gone: false };
  }
  c.count += by;
  txn.record(() => (c.count -= by));
  if (c.count === 0) txDelete(txn, map, key);
  return { created: false, gone: c.count === 0 };
}

export class IncrementalGather {
  private readonly memo = new Map<string, { count: number; ex: Extracted | null }>();
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly stage: Gather,
    private readonly opts: EvalOptions,
  ) {}

  step(delta: ZSet, txn: Txn): ZSet {
    const touched = new Set<string>();
    for (const e of delta) {
      const ex = this.extract(e, txn);
      if (ex === null) continue;
      this.apply(this.group(ex.group, txn), e, ex, txn);
      touched.add(ex.group);
    }
    const out = new ZSet();
    for (const gk of touched) this.emit(gk, out, txn);
    return out;
  }

  private extract(e: Entry, txn: Txn): Extracted | null {
    const m = this.memo.get(e.key);
    const ex = m !== undefined ? m.ex : gatherExtract(this.stage, e.doc, this.opts);
    const count = (m?.count ?? 0) + e.count;
    if (count === 0) txDelete(txn, this.memo, e.key);
    else txSet(txn, this.memo, e.key, { count, ex });
    return ex;
  }

  private group(gk: string, txn: Txn): Group {
    let g = this.groups.get(gk);
    if (g === undefined) {
      g = { members: new Map(), values: new Map(), order: [], rep: null, out: null };
      txSet(txn, this.groups, gk, g);
    }
    return g;
  }

  private apply(g: Group, e: Entry, { value, valueKey: vk }: Extracted, txn: Txn): void {
    const member = bump(txn, g.members, e.key, e.doc, e.count);
    // A null rep means "unknown, rescan when emitting", so only a known rep can be beaten here.
    if (member.created && g.rep !== null && e.key < g.rep) set(txn, g, 'rep', e.key);
    if (member.gone && g.rep === e.key) set(txn, g, 'rep', null);
    const v = bump(txn, g.values, vk, value, e.count);
    if (v.created) this.insertOrdered(g, vk, value, txn);
    if (v.gone) this.removeOrdered(g, vk, txn);
  }

  private position(g: Group, vk: string, value: unknown): number {
    let lo = 0;
    let hi = g.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const mk = g.order[mid] as string;
      const c =
        compareGatherValues((g.values.get(mk) as Counted<unknown>).item, value) || (mk < vk ? -1 : mk > vk ? 1 : 0);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertOrdered(g: Group, vk: string, value: unknown, txn: Txn): void {
    const i = this.position(g, vk, value);
    g.order.splice(i, 0, vk);
    // Undo runs in reverse order, so the array is exactly as this left it.
    txn.record(() => g.order.splice(i, 1));
  }

  private removeOrdered(g: Group, vk: string, txn: Txn): void {
    const i = g.order.indexOf(vk);
    if (i < 0) return;
    g.order.splice(i, 1);
    txn.record(() => g.order.splice(i, 0, vk));
  }

  private representative(g: Group, txn: Txn): Doc | null {
    if (g.rep === null || (g.members.get(g.rep)?.count ?? 0) <= 0) {
      let best: string | null = null;
      for (const [k, m] of g.members) if (m.count > 0 && (best === null || k < best)) best = k;
      set(txn, g, 'rep', best);
    }
    return g.rep === null ? null : (g.members.get(g.rep) as Counted<Doc>).item;
  }

  private emit(gk: string, out: ZSet, txn: Txn): void {
    const g = this.groups.get(gk) as Group;
    const rep = this.representative(g, txn);
    let next: Group['out'] = null;
    if (rep !== null) {
      const list: unknown[] = [];
      for (const vk of g.order) {
        const v = g.values.get(vk) as Counted<unknown>;
        for (let i = 0; i < v.count; i++) list.push(v.item);
      }
      const doc = gatherBuild(this.stage, rep, list);
      next = { key: canon(doc), doc };
    }
    if (g.out?.key !== next?.key) {
      if (g.out !== null) out.add(g.out.key, g.out.doc, -1);
      if (next !== null) out.add(next.key, next.doc, 1);
      set(txn, g, 'out', next);
    }
    if (g.members.size === 0) txDelete(txn, this.groups, gk);
  }
}
