// Incremental @join: one integrated, hash-indexed state per source. For inputs with deltas
// processed one after another, Δ(A⋈B⋈…) = Σ_i Δ_i ⋈ (state of the others, already updated for
// inputs before i), which equals the original's 2^n−1 term expansion with less work.

import { analyzeJoin, extendJoin, KindIndex, planFrom, type JoinRow, type JoinRun } from '../engine/join-index.js';
import type { Txn } from '../engine/txn.js';
import { ZSet } from '../engine/zset.js';
import type { EvalOptions } from '../expressions/index.js';
import type { JoinSpec } from '../stages/spec.js';

export class IncrementalJoin {
  private readonly run: JoinRun;
  private readonly plans: Map<string, ReturnType<typeof planFrom>>;

  constructor(join: JoinSpec, kinds: readonly string[], opts: EvalOptions & { joinIndex?: boolean }) {
    const equalities = opts.joinIndex === false ? [] : analyzeJoin(join, kinds);
    const indexes = new Map(kinds.map((k) => [k, new KindIndex(k, equalities, opts)]));
    this.run = { join, kinds, sortedKinds: [...kinds].sort(), indexes, opts };
    this.plans = new Map(kinds.map((k) => [k, planFrom(k, kinds, equalities)]));
  }

  step(inputs: ReadonlyMap<string, ZSet>, txn: Txn): ZSet {
    const out = new ZSet();
    for (const kind of this.run.kinds) {
      const delta = inputs.get(kind);
      if (delta === undefined || delta.size === 0) continue;
      const index = this.run.indexes.get(kind) as KindIndex;
      const rows: JoinRow[] = [];
      for (const e of delta) {
        const known = index.rows.get(e.key);
        rows.push({ key: e.key, doc: e.doc, count: e.count, keys: known?.keys ?? index.keysOf(e.doc) });
      }
      extendJoin(this.run, kind, rows, this.plans.get(kind) ?? [], out);
      for (const r of rows) this.integrate(index, r, txn);
    }
    return out;
  }

  private integrate(index: KindIndex, r: JoinRow, txn: Txn): void {
    const row = index.rows.get(r.key);
    if (row === undefined) {
      index.link(r);
      txn.record(() => index.unlink(r));
      return;
    }
    const before = row.count;
    row.count += r.count;
    if (row.count === 0) index.unlink(row);
    txn.record(() => {
      if (row.count === 0) index.link(row);
      row.count = before;
    });
  }
}
