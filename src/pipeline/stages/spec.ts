// The parsed shape of a pipeline (spec §3.1): an optional leading @join and a chain of stages.

import type { PathRef } from '../expressions/ast.js';
import type { Expr } from '../expressions/index.js';

export type StageSpec =
  | { readonly t: 'select'; readonly op: '@select'; readonly expr: Expr; readonly path: string }
  | {
      readonly t: 'project';
      readonly op: '@project';
      readonly fragments: readonly Expr[];
      readonly listForm: boolean;
      readonly path: string;
    }
  | {
      readonly t: 'unwind';
      readonly op: '@unwind' | '@demux';
      readonly source: string;
      readonly ref: PathRef;
      readonly path: string;
    }
  | {
      readonly t: 'gather';
      readonly op: '@gather' | '@mux';
      readonly key: Expr;
      readonly value: Expr;
      /** The value argument when it is a literal string, i.e. where the list is written back. */
      readonly valuePath: string | null;
      readonly path: string;
    };

export interface JoinSpec {
  readonly expr: Expr;
  readonly path: string;
}

export interface PipelineSpec {
  /** Source kinds, deduplicated, in declaration order. */
  readonly sources: readonly string[];
  readonly join: JoinSpec | null;
  readonly stages: readonly StageSpec[];
}
