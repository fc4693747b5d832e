// The JSONPath dialect the original gets from ohler55/ojg, as far as pipelines use it: dotted and
// bracketed children, indices (negative from the end), `*`, slices, unions, `..` descent and
// `[?(...)]` filters with ==, !=, <, <=, >, >=, in, =~, &&, ||, ! and parentheses.

export type Step =
  | { readonly t: 'child'; readonly name: string }
  | { readonly t: 'index'; readonly index: number }
  | { readonly t: 'wild' }
  | { readonly t: 'slice'; readonly start?: number; readonly end?: number; readonly step?: number }
  | { readonly t: 'union'; readonly items: ReadonlyArray<ChildStep | IndexStep> }
  | { readonly t: 'filter'; readonly expr: FilterExpr }
  | { readonly t: 'descent'; readonly step: Step };

export type ChildStep = Extract<Step, { t: 'child' }>;
export type IndexStep = Extract<Step, { t: 'index' }>;

export interface JsonPath {
  /** `$` reads from the document root, `@` from the node under a filter. */
  readonly root: '$' | '@';
  readonly steps: readonly Step[];
  readonly source: string;
  /** True when a filter inside refers back to `$`, so the result depends on more than the path. */
  readonly usesRoot: boolean;
}

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '=~';

export type FilterExpr =
  | { readonly t: 'path'; readonly path: JsonPath }
  | { readonly t: 'lit'; readonly value: unknown }
  | { readonly t: 'regex'; readonly re: RegExp }
  | { readonly t: 'not'; readonly e: FilterExpr }
  | { readonly t: 'and' | 'or'; readonly l: FilterExpr; readonly r: FilterExpr }
  | { readonly t: 'cmp'; readonly op: CompareOp; readonly l: FilterExpr; readonly r: FilterExpr };
