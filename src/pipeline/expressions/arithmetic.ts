// Arithmetic (spec §4.3): binary @add/@sub/@mul/@div, unary @abs/@ceil/@floor, list folds
// @sum/@min/@max, and @rnd. Results are int when every operand is, float otherwise.

import { asFloat, asNumList, asNumPair, fail } from '../value/coerce.js';
import { evaluate, where, type OpFn } from './core.js';

function binary(f: (a: number, b: number) => number): OpFn {
  return (n, ctx) => {
    const { values } = asNumPair(evaluate(n.arg, ctx), where(n));
    return f(values[0], values[1]);
  };
}

function unary(f: (a: number) => number): OpFn {
  return (n, ctx) => f(asFloat(evaluate(n.arg, ctx), where(n)));
}

function fold(pick: (a: number, b: number) => number): OpFn {
  return (n, ctx) => {
    const { values } = asNumList(evaluate(n.arg, ctx), where(n));
    return values.length === 0 ? null : values.reduce((a, b) => pick(a, b));
  };
}

export const arithmeticOps: Record<string, OpFn> = {
  '@add': binary((a, b) => a + b),
  '@sub': binary((a, b) => a - b),
  '@mul': binary((a, b) => a * b),
  // Always a float division; x/0 gives ±Inf or NaN as in Go, not an error.
  '@div': binary((a, b) => a / b),
  '@abs': unary(Math.abs),
  '@ceil': unary(Math.ceil),
  '@floor': unary(Math.floor),
  '@sum': (n, ctx) => asNumList(evaluate(n.arg, ctx), where(n)).values.reduce((a, b) => a + b, 0),
  '@min': fold(Math.min),
  '@max': fold(Math.max),
  '@rnd': (n, ctx) => {
    const { ints, values } = asNumPair(evaluate(n.arg, ctx), where(n));
    if (!ints) return fail(where(n), 'expected two integers [min, max]');
    const [min, max] = values;
    // Go panics here; an error is the useful equivalent.
    if (max <= min) return fail(where(n), `max (${max}) must be greater than min (${min})`);
    return min + Math.floor(ctx.random() * (max - min));
  },
};
