// The expression language: parse once, evaluate many times. Importing this module installs every
// operator family into the evaluator's table.

import { arithmeticOps } from './arithmetic.js';
import { compareOps } from './compare.js';
import { installOps } from './core.js';
import { hashOps } from './hash.js';
import { listOps } from './lists.js';
import { literalOps } from './literals.js';
import { logicOps } from './logic.js';
import { selectorOps } from './selector.js';

installOps({ ...literalOps, ...logicOps, ...compareOps, ...selectorOps, ...arithmeticOps, ...listOps, ...hashOps });

export { parseExpression, opName, type Expr, type OpExpr } from './ast.js';
export { rootCtx, withSubject, type Ctx, type EvalOptions } from './context.js';
export { evaluate, evalDict, resolveString } from './core.js';
export { matchSelector } from './selector.js';
