// Comparison, boolean logic and the nil-handling helpers (default, empty, coalesce, required...).

import { isEmpty } from './convert.js';
import { FunctionError } from './errors.js';
import { def, type FuncDef } from './func-types.js';
import { goEqual, goLess, isNil, truth } from './values.js';

const compare = (test: (a: unknown, b: unknown) => boolean): FuncDef => def(([a, b]) => test(a, b), 2);

export const logicFunctions: Record<string, FuncDef> = {
  // The evaluator runs these two itself (short-circuit, deciding value returned); `fn` is the eager fallback.
  and: def((args) => args.find((a) => !truth(a)) ?? args[args.length - 1], 1, Infinity, {
    lazy: 'and',
    acceptsMissing: true,
  }),
  or: def((args) => args.find((a) => truth(a)) ?? args[args.length - 1], 1, Infinity, {
    lazy: 'or',
    acceptsMissing: true,
  }),
  not: def(([a]) => !truth(a), 1, 1, { acceptsMissing: true }),

  eq: def(([a, ...rest]) => rest.some((b) => goEqual(a, b, 'eq')), 2, Infinity),
  ne: compare((a, b) => !goEqual(a, b, 'ne')),
  lt: compare((a, b) => goLess(a, b, 'lt')),
  le: compare((a, b) => goLess(a, b, 'le') || goEqual(a, b, 'le')),
  gt: compare((a, b) => !goLess(a, b, 'gt') && !goEqual(a, b, 'gt')),
  ge: compare((a, b) => !goLess(a, b, 'ge')),

  // sprig order: `default DEFAULT VALUE`, so `VALUE | default DEFAULT` reads naturally.
  default: def(([d, ...given]) => (given.length === 0 || isEmpty(given[0]) ? d : given[0]), 1, 2, {
    acceptsMissing: true,
  }),
  empty: def(([v]) => isEmpty(v), 1, 1, { acceptsMissing: true }),
  coalesce: def((args) => args.find((a) => !isEmpty(a)) ?? null, 0, Infinity, { acceptsMissing: true }),
  ternary: def(([yes, no, cond]) => (truth(cond) ? yes : no), 3),
  required: def(
    ([msg, v]) => {
      if (isNil(v) || v === '') throw new FunctionError(typeof msg === 'string' ? msg : String(msg));
      return v;
    },
    2,
    2,
    { acceptsMissing: true },
  ),
  fail: def(([msg]) => {
    throw new FunctionError(typeof msg === 'string' ? msg : String(msg));
  }, 1),
};
