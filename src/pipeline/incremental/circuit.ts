// The incremental engine: optional join, then runs of fused linear stages and @gather operators,
// all on deltas. Work per event is proportional to the change it causes.

import type { Circuit, CircuitOptions } from '../engine/circuit.js';
import type { Txn } from '../engine/txn.js';
import { ZSet } from '../engine/zset.js';
import { composeFns, linearFn, type DocFn } from '../stages/linear.js';
import type { PipelineSpec } from '../stages/spec.js';
import { IncrementalGather } from './gather.js';
import { IncrementalJoin } from './join.js';
import { LinearChain } from './linear.js';

interface DeltaOp {
  step(delta: ZSet, txn: Txn): ZSet;
}

function buildOps(spec: PipelineSpec, opts: CircuitOptions): DeltaOp[] {
  const ops: DeltaOp[] = [];
  let run: DocFn[] = [];
  const flush = (): void => {
    if (run.length > 0) ops.push(new LinearChain(composeFns(run)));
    run = [];
  };
  for (const stage of spec.stages) {
    if (stage.t === 'gather') {
      flush();
      ops.push(new IncrementalGather(stage, opts));
    } else {
      run.push(linearFn(stage, opts));
    }
  }
  flush();
  return ops;
}

export class IncrementalCircuit implements Circuit {
  private readonly join: IncrementalJoin | null;
  private readonly ops: DeltaOp[];

  constructor(
    private readonly spec: PipelineSpec,
    opts: CircuitOptions,
  ) {
    this.join = spec.join === null ? null : new IncrementalJoin(spec.join, spec.sources, opts);
    this.ops = buildOps(spec, opts);
  }

  step(inputs: ReadonlyMap<string, ZSet>, _sources: unknown, txn: Txn): ZSet {
    let z =
      this.join !== null ? this.join.step(inputs, txn) : (inputs.get(this.spec.sources[0] as string) ?? new ZSet());
    for (const op of this.ops) {
      if (z.size === 0) break;
      z = op.step(z, txn);
    }
    return z;
  }
}
