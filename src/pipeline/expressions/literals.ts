// Constructors: @bool, @int, @float, @string, @list, @dict (spec §4.3, "Literals and constructors").

import { asBool, asFloat, asInt, asString, fail } from '../value/coerce.js';
import { describe, isMap } from '../../util/json-value.js';
import { evaluate, resolveString, rfc3339, unpack, where, type OpFn } from './core.js';

export const literalOps: Record<string, OpFn> = {
  '@bool': (n, ctx) => asBool(evaluate(n.arg, ctx), where(n)),
  '@int': (n, ctx) => asInt(evaluate(n.arg, ctx), where(n)),
  '@float': (n, ctx) => asFloat(evaluate(n.arg, ctx), where(n)),
  '@string': (n, ctx) => {
    // Converted first, then resolved like a literal string: a computed "$..." is read.
    const s = asString(evaluate(n.arg, ctx), where(n));
    const v = resolveString(s, ctx, where(n));
    return v === '@now' ? rfc3339(ctx.now()) : v;
  },
  '@list': (n, ctx) => {
    const v = evaluate(n.arg, ctx);
    if (!Array.isArray(v)) return fail(where(n), `argument must be a list, got ${describe(v)}`);
    return unpack(v);
  },
  '@dict': (n, ctx) => {
    const v = evaluate(n.arg, ctx);
    if (!isMap(v)) return fail(where(n), `argument must be a map, got ${describe(v)}`);
    return v;
  },
};
