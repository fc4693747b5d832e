// The function table: Go's builtins plus the sprig/Helm functions Flow authors expect. Each
// entry states its arity (checked at call time, as Go does) and whether it accepts a missing
// field, which is how `.a.b | default "x"` works while `.a.b | upper` reports the missing key.

import { dataFunctions } from './func-data.js';
import { logicFunctions } from './func-logic.js';
import { mathFunctions } from './func-math.js';
import { textFunctions } from './func-text.js';
import type { FuncDef, FuncTable, UserFunction } from './func-types.js';
import { InvalidFunctionError } from './errors.js';

export type { CallContext, FuncDef, FuncTable, UserFunction } from './func-types.js';

export const BUILTINS: FuncTable = new Map<string, FuncDef>([
  ...Object.entries(logicFunctions),
  ...Object.entries(textFunctions),
  ...Object.entries(dataFunctions),
  ...Object.entries(mathFunctions),
]);

/** Caller functions override builtins of the same name, except the short-circuiting `and`/`or`. */
export function buildTable(user: Record<string, UserFunction> | undefined): FuncTable {
  if (!user || Object.keys(user).length === 0) return BUILTINS;
  const table = new Map(BUILTINS);
  for (const [name, fn] of Object.entries(user)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new InvalidFunctionError(`invalid template function name ${JSON.stringify(name)}`);
    if (BUILTINS.get(name)?.lazy) throw new InvalidFunctionError(`template function "${name}" cannot be overridden`);
    table.set(name, { fn: (args) => fn(...args), min: 0, max: Infinity });
  }
  return table;
}
