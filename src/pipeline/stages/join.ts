// @join (spec §3.3): the predicate over a compound document {<Kind>: object, ...}.

import { evaluate, rootCtx, type EvalOptions } from '../expressions/index.js';
import { asBool } from '../value/coerce.js';
import type { Doc } from '../../util/index.js';
import type { JoinSpec } from './spec.js';

export function joinMatches(join: JoinSpec, compound: Doc, opts: EvalOptions): boolean {
  return asBool(evaluate(join.expr, rootCtx(compound, opts)), { op: '@join', path: join.path }, 'the join condition');
}
