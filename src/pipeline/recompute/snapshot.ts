// Snapshot (non-incremental) evaluation of each stage over a whole z-set, as the original's
// snapshot graph does. Kept deliberately separate from the incremental operators so that tests
// can compare the two engines against each other.

import { analyzeJoin, extendJoin, KindIndex, planFrom, type JoinRow } from '../engine/join-index.js';
import type { CircuitOptions } from '../engine/circuit.js';
import type { Sources } from '../engine/sources.js';
import { ZSet } from '../engine/zset.js';
import { compareGatherValues, gatherBuild, gatherExtract, type Gather } from '../stages/gather.js';
import { composeFns, linearFn, type LinearStage } from '../stages/linear.js';
import type { JoinSpec } from '../stages/spec.js';
import { canon, type Doc } from '../../util/json-value.js';

/** A run of linear stages over a whole z-set (the identity for an empty run). */
export function snapshotLinear(stages: readonly LinearStage[], input: ZSet, opts: CircuitOptions): ZSet {
  if (stages.length === 0) return input;
  const fn = composeFns(stages.map((s) => linearFn(s, opts)));
  const out = new ZSet();
  for (const e of input) for (const d of fn(e.doc)) out.add(d === e.doc ? e.key : canon(d), d, e.count);
  return out;
}

export function snapshotJoin(join: JoinSpec, kinds: readonly string[], sources: Sources, opts: CircuitOptions): ZSet {
  const equalities = opts.joinIndex === false ? [] : analyzeJoin(join, kinds);
  const indexes = new Map<string, KindIndex>();
  for (const kind of kinds) {
    const index = new KindIndex(kind, equalities, opts);
    for (const e of sources.contents(kind))
      index.link({ key: e.key, doc: e.doc, count: e.count, keys: index.keysOf(e.doc) });
    indexes.set(kind, index);
  }
  const start = kinds[0] as string;
  const out = new ZSet();
  const run = { join, kinds, sortedKinds: [...kinds].sort(), indexes, opts };
  const rows: JoinRow[] = [...(indexes.get(start) as KindIndex).rows.values()];
  extendJoin(run, start, rows, planFrom(start, kinds, equalities), out);
  return out;
}

interface SnapshotGroup {
  readonly members: Array<{ key: string; doc: Doc }>;
  readonly values: Array<{ v: unknown; k: string }>;
}

export function snapshotGather(stage: Gather, input: ZSet, opts: CircuitOptions): ZSet {
  const groups = new Map<string, SnapshotGroup>();
  for (const e of input) {
    if (e.count <= 0) continue;
    const ex = gatherExtract(stage, e.doc, opts);
    if (ex === null) continue;
    let g = groups.get(ex.group);
    if (g === undefined) groups.set(ex.group, (g = { members: [], values: [] }));
    g.members.push({ key: e.key, doc: e.doc });
    for (let i = 0; i < e.count; i++) g.values.push({ v: ex.value, k: ex.valueKey });
  }
  const out = new ZSet();
  for (const g of groups.values()) {
    const rep = g.members.reduce((a, b) => (b.key < a.key ? b : a));
    const values = g.values
      .sort((a, b) => compareGatherValues(a.v, b.v) || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
      .map((x) => x.v);
    out.addDoc(gatherBuild(stage, rep.doc, values), 1);
  }
  return out;
}
