// @select (spec §3.4): keep a document iff the expression is boolean true.

import { evaluate, rootCtx, type EvalOptions } from '../expressions/index.js';
import { asBool } from '../value/coerce.js';
import type { Doc } from '../../util/index.js';
import type { StageSpec } from './spec.js';

type Select = Extract<StageSpec, { t: 'select' }>;

export function selectDoc(stage: Select, doc: Doc, opts: EvalOptions): boolean {
  const v = evaluate(stage.expr, rootCtx(doc, opts));
  return asBool(v, { op: stage.op, path: stage.path }, 'the condition');
}
