// A fused run of linear stages (@select, @project, @unwind) working on deltas. Each input
// document's outputs are remembered while it is live, so a retraction replays exactly what its
// insertion produced: no re-evaluation, and non-deterministic expressions (@now, @rnd) still
// cancel out.

import { txDelete, txSet, type Txn } from '../engine/txn.js';
import { ZSet } from '../engine/zset.js';
import { canon, type Doc } from '../../util/json-value.js';

export type DocFn = (doc: Doc) => Doc[];

interface Memo {
  readonly count: number;
  readonly outs: ReadonlyArray<{ readonly key: string; readonly doc: Doc }>;
}

export class LinearChain {
  private readonly memo = new Map<string, Memo>();

  constructor(private readonly fn: DocFn) {}

  step(delta: ZSet, txn: Txn): ZSet {
    const out = new ZSet();
    for (const e of delta) {
      const m = this.memo.get(e.key);
      // Unchanged documents (a @select that keeps its input) keep their key: no re-serialising.
      const outs = m?.outs ?? this.fn(e.doc).map((d) => ({ key: d === e.doc ? e.key : canon(d), doc: d }));
      for (const o of outs) out.add(o.key, o.doc, e.count);
      const count = (m?.count ?? 0) + e.count;
      if (count === 0) txDelete(txn, this.memo, e.key);
      else txSet(txn, this.memo, e.key, { count, outs });
    }
    return out;
  }
}
