// @gather / @mux (spec §3.7): group documents by a key and collect one value per document into a
// sorted list, written back into a representative member. The representative is the member with
// the smallest canonical JSON, so the output depends on the group's content only, never on the
// order events arrived in (the original took an arbitrary member; spec §8 item 11).

import { evaluate, rootCtx, type EvalOptions } from '../expressions/index.js';
import { setPath, parseJsonPathCached } from '../../jsonpath/index.js';
import { fail, type Where } from '../value/coerce.js';
import { canon, compareStrings, copyMap, goJson, isNil, type Doc } from '../../util/json-value.js';
import type { StageSpec } from './spec.js';

export type Gather = Extract<StageSpec, { t: 'gather' }>;

export interface Extracted {
  /** Canonical JSON of the key: the group identity. */
  readonly group: string;
  readonly value: unknown;
  /** Canonical JSON of the value: values are counted and removed by it. */
  readonly valueKey: string;
}

/** Key and value of one member, or null when either is null (the document is skipped). */
export function gatherExtract(stage: Gather, doc: Doc, opts: EvalOptions): Extracted | null {
  const ctx = rootCtx(doc, opts);
  const key = evaluate(stage.key, ctx);
  if (isNil(key)) return null;
  const value = evaluate(stage.value, ctx);
  if (isNil(value)) return null;
  return { group: canon(key), value, valueKey: canon(value) };
}

function jsonText(v: unknown): string {
  try {
    return goJson(v);
  } catch {
    return String(v);
  }
}

/**
 * The order of gathered values: numbers numerically, strings by code point, anything else (and
 * mixed types) by Go JSON text, which puts strings before numbers before everything else.
 */
export function compareGatherValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  return compareStrings(jsonText(a), jsonText(b));
}

/** The group's output: the representative with the value list written at the value path. */
export function gatherBuild(stage: Gather, representative: Doc, values: unknown[]): Doc {
  const at: Where = { op: stage.op, path: stage.path };
  const target = stage.valuePath;
  if (target === null) return fail(at, 'the value argument must be a literal JSONPath string to write the list back');
  if (!target.startsWith('$')) return copyMap(representative, { [target]: values });
  try {
    return setPath(representative, parseJsonPathCached(target === '$.' ? '$' : target), values) as Doc;
  } catch (e) {
    return fail(at, `cannot write the gathered list at ${target}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
