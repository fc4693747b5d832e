// sprig arithmetic: add/sub/mul/div/mod/max/min work on int64 (so `div 7 2` is 3 and `add 1.5 1`
// is 2, as in Helm); the *f variants keep fractions.

import { atoi, toFloat, toInt } from './convert.js';
import { def, type FuncDef } from './func-types.js';
import { FunctionCallError } from './errors.js';

function intDivisor(b: unknown): number {
  const n = toInt(b);
  if (n === 0) throw new FunctionCallError('integer divide by zero');
  return n;
}

export const mathFunctions: Record<string, FuncDef> = {
  add: def((args) => args.reduce<number>((s, a) => s + toInt(a), 0), 0, Infinity),
  add1: def(([a]) => toInt(a) + 1, 1),
  sub: def(([a, b]) => toInt(a) - toInt(b), 2),
  mul: def((args) => args.reduce<number>((s, a) => s * toInt(a), 1), 1, Infinity),
  div: def(([a, b]) => Math.trunc(toInt(a) / intDivisor(b)), 2),
  mod: def(([a, b]) => toInt(a) % intDivisor(b), 2),
  max: def((args) => Math.max(...args.map(toInt)), 1, Infinity),
  min: def((args) => Math.min(...args.map(toInt)), 1, Infinity),
  addf: def((args) => args.reduce<number>((s, a) => s + toFloat(a), 0), 0, Infinity),
  subf: def(([a, b]) => toFloat(a) - toFloat(b), 2),
  mulf: def((args) => args.reduce<number>((s, a) => s * toFloat(a), 1), 1, Infinity),
  divf: def(([a, b]) => toFloat(a) / toFloat(b), 2),
  int: def(([a]) => toInt(a), 1),
  int64: def(([a]) => toInt(a), 1),
  float64: def(([a]) => toFloat(a), 1),
  atoi: def(([a]) => atoi(a), 1),
};
