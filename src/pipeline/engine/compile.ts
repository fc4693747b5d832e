// compilePipeline: parse once, then feed watch events through source caches, the circuit and
// output reconciliation. Every batch is atomic: on error nothing changes and nothing is emitted.

import { PipelineError, PipelineParseError } from '../errors.js';
import { matchSelector } from '../expressions/index.js';
import { IncrementalCircuit } from '../incremental/circuit.js';
import { RecomputeCircuit } from '../recompute/circuit.js';
import { parsePipeline } from '../stages/parse.js';
import { isMap } from '../../util/json-value.js';
import type { Circuit, CircuitOptions } from './circuit.js';
import type { InputEvent, OutputEvent, SourceFilter } from './events.js';
import { Sources } from './sources.js';
import { TargetStore, type TargetKind } from './target.js';
import { Txn } from './txn.js';

export interface CompileOptions extends CircuitOptions {
  /** Source kinds; events are routed by `object.kind`. */
  readonly sources: readonly string[];
  readonly target: TargetKind;
  /** `incremental` (default) works per change; `recompute` recomputes everything per batch. */
  readonly mode?: 'incremental' | 'recompute';
  /**
   * Optional per-kind namespace / label-selector filters. An object that stops matching leaves
   * the pipeline as if deleted, so no stale contribution remains (spec §8 item 10).
   */
  readonly filters?: Readonly<Record<string, SourceFilter>>;
}

export interface CompiledPipeline {
  readonly sources: readonly string[];
  readonly mode: 'incremental' | 'recompute';
  /** One watch event in, the target changes out: all `Deleted` first, then all `Upserted`. */
  process(event: InputEvent): OutputEvent[];
  /** Several events as one atomic step (e.g. an initial list); outputs reconciled once. */
  processBatch(events: readonly InputEvent[]): OutputEvent[];
  /** What the target should contain now, for a state-of-the-world resync. */
  outputs(): Array<Record<string, unknown>>;
}

function checkFilters(filters: Readonly<Record<string, SourceFilter>>): void {
  for (const [kind, f] of Object.entries(filters)) {
    if (f.labelSelector === undefined) continue;
    if (!isMap(f.labelSelector)) throw new PipelineParseError('labelSelector', `filters.${kind}`, 'must be a map');
    try {
      matchSelector(f.labelSelector, {}, { op: 'labelSelector', path: `filters.${kind}` });
    } catch (e) {
      if (e instanceof PipelineError) throw new PipelineParseError(e.op, e.path, e.data.detail);
      throw e;
    }
  }
}

export function compilePipeline(pipeline: unknown, opts: CompileOptions): CompiledPipeline {
  const spec = parsePipeline(pipeline, opts.sources);
  const filters = opts.filters ?? {};
  checkFilters(filters);
  if (typeof opts.target?.apiVersion !== 'string' || typeof opts.target?.kind !== 'string') {
    throw new PipelineParseError('target', 'target', 'apiVersion and kind must be strings');
  }
  const mode = opts.mode ?? 'incremental';
  const circuit: Circuit = mode === 'recompute' ? new RecomputeCircuit(spec, opts) : new IncrementalCircuit(spec, opts);
  const sources = new Sources(spec.sources, filters);
  const target = new TargetStore({ apiVersion: opts.target.apiVersion, kind: opts.target.kind });

  const processBatch = (events: readonly InputEvent[]): OutputEvent[] => {
    const txn = new Txn();
    try {
      const inputs = sources.apply(events, txn);
      if ([...inputs.values()].every((z) => z.size === 0)) return [];
      return target.reconcile(circuit.step(inputs, sources, txn), txn);
    } catch (e) {
      txn.rollback();
      throw e;
    }
  };

  return {
    sources: spec.sources,
    mode,
    process: (event) => processBatch([event]),
    processBatch,
    outputs: () => target.outputs(),
  };
}
