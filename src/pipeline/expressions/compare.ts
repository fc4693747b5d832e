// Comparison and equality (spec §4.3): @eq (type-sensitive, false when either side is null),
// numeric @lt/@lte/@gt/@gte, and @in.

import { asList, asNumPair, fail } from '../value/coerce.js';
import { deepEqual, isNil } from '../../util/json-value.js';
import type { OpExpr } from './ast.js';
import type { Ctx } from './context.js';
import { evaluate, where, type OpFn } from './core.js';

function pair(n: OpExpr, ctx: Ctx): [unknown, unknown] {
  const l = asList(evaluate(n.arg, ctx), where(n));
  if (l.length !== 2) return fail(where(n), `expected 2 arguments, got ${l.length}`);
  return [l[0], l[1]];
}

function ordered(test: (a: number, b: number) => boolean): OpFn {
  return (n, ctx) => {
    const { values } = asNumPair(evaluate(n.arg, ctx), where(n));
    return test(values[0], values[1]);
  };
}

export const compareOps: Record<string, OpFn> = {
  '@eq': (n, ctx) => {
    const [a, b] = pair(n, ctx);
    return !isNil(a) && !isNil(b) && deepEqual(a, b);
  },
  '@lt': ordered((a, b) => a < b),
  '@lte': ordered((a, b) => a <= b),
  '@gt': ordered((a, b) => a > b),
  '@gte': ordered((a, b) => a >= b),
  '@in': (n, ctx) => {
    const [elem, list] = pair(n, ctx);
    return asList(list, where(n), 'the second argument').some((x) => deepEqual(x, elem));
  },
};
