// Shapes shared by the function tables; kept apart so the tables do not import the registry.

export interface CallContext {
  /** True under renderManifest, where toYaml must never emit a block scalar (see manifest.ts). */
  readonly manifest: boolean;
}

export interface FuncDef {
  readonly fn: (args: unknown[], ctx: CallContext) => unknown;
  readonly min: number;
  /** Infinity for variadic functions. */
  readonly max: number;
  /** Missing fields reach `fn` as null instead of raising "map has no entry for key". */
  readonly acceptsMissing?: boolean;
  /** `and`/`or`: arguments are evaluated one by one by the evaluator, which stops at the deciding one. */
  readonly lazy?: 'and' | 'or';
}

export type FuncTable = ReadonlyMap<string, FuncDef>;

export type UserFunction = (...args: unknown[]) => unknown;

/** Small helper so the tables read as `name: def(fn, min, max)`. */
export function def(fn: FuncDef['fn'], min: number, max = min, extra: Partial<FuncDef> = {}): FuncDef {
  return { fn, min, max, ...extra };
}
