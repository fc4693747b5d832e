// Per-document functions of the linear stages, shared by the incremental and recompute engines.

import type { EvalOptions } from '../expressions/index.js';
import type { Doc } from '../../util/index.js';
import { projectDoc } from './project.js';
import { selectDoc } from './select.js';
import type { StageSpec } from './spec.js';
import { unwindDoc } from './unwind.js';

export type LinearStage = Exclude<StageSpec, { t: 'gather' }>;
export type DocFn = (doc: Doc) => Doc[];

export function linearFn(stage: LinearStage, opts: EvalOptions): DocFn {
  switch (stage.t) {
    case 'select':
      return (d) => (selectDoc(stage, d, opts) ? [d] : []);
    case 'project':
      return (d) => [projectDoc(stage, d, opts)];
    default:
      return (d) => unwindDoc(stage, d);
  }
}

export function composeFns(fns: readonly DocFn[]): DocFn {
  return (doc) => {
    let docs = [doc];
    for (const f of fns) docs = docs.flatMap(f);
    return docs;
  };
}
