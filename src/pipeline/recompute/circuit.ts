// The full-recompute engine: on every batch the whole output is computed again from the source
// caches and diffed against the previous output. Same results as the incremental engine, with
// work proportional to the total input; it exists for comparison (tests, bench).

import type { Circuit, CircuitOptions } from '../engine/circuit.js';
import type { Sources } from '../engine/sources.js';
import type { Txn } from '../engine/txn.js';
import { ZSet } from '../engine/zset.js';
import type { LinearStage } from '../stages/linear.js';
import type { PipelineSpec } from '../stages/spec.js';
import { snapshotGather, snapshotJoin, snapshotLinear } from './snapshot.js';

export class RecomputeCircuit implements Circuit {
  private previous = new ZSet();

  constructor(
    private readonly spec: PipelineSpec,
    private readonly opts: CircuitOptions,
  ) {}

  step(_inputs: unknown, sources: Sources, txn: Txn): ZSet {
    const full = this.compute(sources);
    const delta = ZSet.diff(full, this.previous);
    const before = this.previous;
    this.previous = full;
    txn.record(() => (this.previous = before));
    return delta;
  }

  private compute(sources: Sources): ZSet {
    const { spec, opts } = this;
    let z =
      spec.join !== null
        ? snapshotJoin(spec.join, spec.sources, sources, opts)
        : ZSet.of(sources.contents(spec.sources[0] as string));
    // Adjacent linear stages are fused, as the original's rewrite engine does: same result,
    // no intermediate z-sets.
    let run: LinearStage[] = [];
    for (const stage of spec.stages) {
      if (stage.t !== 'gather') {
        run.push(stage);
        continue;
      }
      z = snapshotGather(stage, snapshotLinear(run, z, opts), opts);
      run = [];
    }
    return snapshotLinear(run, z, opts);
  }
}
