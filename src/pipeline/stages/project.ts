// @project (spec §3.5): map form evaluates one literal map; list form evaluates every fragment
// against the same input and deep-merges the results left to right.

import { evaluate, rootCtx, type EvalOptions } from '../expressions/index.js';
import { fail } from '../value/coerce.js';
import { describe, isMap, isNil, type Doc, copyMap } from '../../util/json-value.js';
import type { StageSpec } from './spec.js';

type Project = Extract<StageSpec, { t: 'project' }>;

/** MergeAny: maps merge recursively, lists concatenate, anything else the right side wins. */
export function mergeAny(a: unknown, b: unknown): unknown {
  if (isNil(a)) return b;
  if (isMap(a) && isMap(b)) {
    const out = copyMap(a);
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? mergeAny(a[k], v) : v;
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  return b;
}

export function projectDoc(stage: Project, doc: Doc, opts: EvalOptions): Doc {
  const ctx = rootCtx(doc, opts);
  let out: unknown = null;
  for (const fragment of stage.fragments) out = mergeAny(out, evaluate(fragment, ctx));
  if (!isMap(out)) {
    return fail({ op: stage.op, path: stage.path }, `the projection must produce a map, got ${describe(out)}`);
  }
  return out;
}
