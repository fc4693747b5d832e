// Lists and strings (spec §4.3): @len, @range, @concat and the iterators @map, @filter, @any,
// @all, @none, which bind `$$` to each element in turn.

import { asBool, asInt, asList, asString, fail } from '../value/coerce.js';
import type { Expr, OpExpr } from './ast.js';
import { withSubject, type Ctx } from './context.js';
import { argItems, evaluate, where, type OpFn } from './core.js';

interface Iteration {
  readonly body: Expr;
  readonly list: unknown[];
}

function iteration(n: OpExpr, ctx: Ctx, exact: boolean): Iteration {
  const args = argItems(n);
  if (exact ? args.length !== 2 : args.length < 2) {
    return fail(where(n), `expected 2 arguments [expression, list], got ${args.length}`);
  }
  const list = asList(evaluate(args[1] as Expr, ctx), where(n), 'the list argument');
  return { body: args[0] as Expr, list };
}

function test(n: OpExpr, ctx: Ctx, body: Expr, elem: unknown): boolean {
  return asBool(evaluate(body, withSubject(ctx, elem)), where(n), 'the condition');
}

export const listOps: Record<string, OpFn> = {
  '@len': (n, ctx) => asList(evaluate(n.arg, ctx), where(n)).length,
  '@range': (n, ctx) => {
    const l = asList(evaluate(n.arg, ctx), where(n));
    if (l.length !== 2) return fail(where(n), `expected 2 arguments [start, end], got ${l.length}`);
    const start = asInt(l[0], where(n));
    const end = asInt(l[1], where(n));
    const out: number[] = [];
    for (let i = start; i < end; i++) out.push(i);
    return out;
  },
  '@concat': (n, ctx) =>
    asList(evaluate(n.arg, ctx), where(n))
      .map((x) => asString(x, where(n)))
      .join(''),
  '@map': (n, ctx) => {
    const { body, list } = iteration(n, ctx, false);
    return list.map((x) => evaluate(body, withSubject(ctx, x)));
  },
  '@filter': (n, ctx) => {
    const { body, list } = iteration(n, ctx, true);
    return list.filter((x) => test(n, ctx, body, x));
  },
  '@any': (n, ctx) => {
    const { body, list } = iteration(n, ctx, true);
    return list.some((x) => test(n, ctx, body, x));
  },
  '@all': (n, ctx) => {
    const { body, list } = iteration(n, ctx, true);
    return list.every((x) => test(n, ctx, body, x));
  },
  '@none': (n, ctx) => {
    const { body, list } = iteration(n, ctx, true);
    // Kept from the original: the result starts false and stays false, so @none is always false;
    // the elements are still checked up to the first true one, so type errors surface.
    list.some((x) => test(n, ctx, body, x));
    return false;
  },
};
