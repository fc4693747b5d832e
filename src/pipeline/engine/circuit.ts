// What both engines implement: turn the per-source input deltas of one batch into the delta of
// the pipeline's output z-set.

import type { Sources } from './sources.js';
import type { Txn } from './txn.js';
import type { ZSet } from './zset.js';

export interface Circuit {
  step(inputs: ReadonlyMap<string, ZSet>, sources: Sources, txn: Txn): ZSet;
}

export interface CircuitOptions {
  readonly now?: () => Date;
  readonly random?: () => number;
  /** false forces nested-loop joins (a reference for tests). Default true. */
  readonly joinIndex?: boolean;
}
