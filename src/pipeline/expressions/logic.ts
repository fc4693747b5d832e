// Logic and control (spec §4.3): short-circuiting @and/@or, @not, @cond, @switch, @definedOr,
// @noop, @isnil, @exists/@has. The lazy ones take their argument list unevaluated.

import { asBool, fail } from '../value/coerce.js';
import { isNil } from '../../util/json-value.js';
import type { Expr, OpExpr } from './ast.js';
import type { Ctx } from './context.js';
import { argItems, evaluate, where, type OpFn } from './core.js';

function all(n: OpExpr, ctx: Ctx, stopOn: boolean): boolean {
  const items = argItems(n);
  for (let i = 0; i < items.length; i++) {
    const v = asBool(evaluate(items[i] as Expr, ctx), where(n), `argument ${i}`);
    if (v === stopOn) return stopOn;
  }
  return !stopOn;
}

function cond(n: OpExpr, ctx: Ctx): unknown {
  const args = argItems(n);
  if (args.length !== 2 && args.length !== 3) {
    return fail(where(n), `expected 2 (if/then) or 3 (if/then/else) arguments, got ${args.length}`);
  }
  const c = asBool(evaluate(args[0] as Expr, ctx), where(n), 'the condition');
  if (c) return evaluate(args[1] as Expr, ctx);
  return args.length === 3 ? evaluate(args[2] as Expr, ctx) : null;
}

function switchOp(n: OpExpr, ctx: Ctx): unknown {
  const cases = argItems(n);
  if (n.arg.t !== 'list' || cases.length === 0)
    return fail(where(n), 'expected a non-empty list of [case, action] pairs');
  for (let i = 0; i < cases.length; i++) {
    const pair = cases[i] as Expr;
    if (pair.t !== 'list' || pair.items.length !== 2) {
      return fail(where(n), `case ${i} must be a [condition, action] pair`);
    }
    const hit = asBool(evaluate(pair.items[0] as Expr, ctx), where(n), `the condition of case ${i}`);
    if (hit) return evaluate(pair.items[1] as Expr, ctx);
  }
  return null;
}

function definedOr(n: OpExpr, ctx: Ctx): unknown {
  const args = argItems(n);
  if (args.length !== 2) return fail(where(n), `expected 2 arguments, got ${args.length}`);
  const v = evaluate(args[0] as Expr, ctx);
  return isNil(v) ? evaluate(args[1] as Expr, ctx) : v;
}

const exists: OpFn = (n, ctx) => !isNil(evaluate(n.arg, ctx));

export const logicOps: Record<string, OpFn> = {
  '@and': (n, ctx) => all(n, ctx, false),
  '@or': (n, ctx) => all(n, ctx, true),
  '@not': (n, ctx) => !asBool(evaluate(n.arg, ctx), where(n)),
  '@cond': cond,
  '@switch': switchOp,
  '@definedOr': definedOr,
  '@noop': () => null,
  '@isnil': (n, ctx) => isNil(evaluate(n.arg, ctx)),
  '@exists': exists,
  '@has': exists,
};
