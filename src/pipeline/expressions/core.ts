// The evaluator: literals, `$`-strings, literal lists (with the unpacking rule) and literal maps
// (with JSONPath setters). Operators are looked up in a table filled by expressions/index.ts.

import { ExpressionError } from '../errors.js';
import { getFirst, setPath } from '../../jsonpath/index.js';
import { fail, type Where } from '../value/coerce.js';
import { describe, isMap, type Doc } from '../../util/json-value.js';
import { parsePathRef, type DictEntry, type Expr, type OpExpr, type PathRef } from './ast.js';
import type { Ctx } from './context.js';

export type OpFn = (node: OpExpr, ctx: Ctx) => unknown;

const ops = new Map<string, OpFn>();

export function installOps(table: Record<string, OpFn>): void {
  for (const [name, fn] of Object.entries(table)) ops.set(name, fn);
}

export function where(e: Expr): Where {
  return { op: e.t === 'op' ? e.op : e.t === 'str' ? '@string' : `@${e.t}`, path: e.path };
}

/** RFC 3339 in UTC without fractional seconds, as Go's `time.RFC3339` prints it. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Resolves a string: a `$`-string is a JSONPath read (first match, or null), anything else is
 * itself. `$$...` reads the iterator's current element.
 */
export function resolveString(s: string, ctx: Ctx, at: Where, pre?: PathRef): unknown {
  if (!s.startsWith('$')) return s;
  const ref = pre ?? parsePathRef(s);
  if (!ref.ok) return fail(at, ref.error);
  if (ref.subject && !ctx.hasSubject) {
    return fail(
      at,
      `${JSON.stringify(s)} refers to $$, which is only bound inside @map, @filter, @any, @all and @none`,
    );
  }
  const v = getFirst(ref.path, ref.subject ? ctx.subject : ctx.object);
  return v === undefined ? null : v;
}

/** The unpacking rule: a list whose first element is a list becomes that first element. */
export function unpack(list: unknown[]): unknown[] {
  const first = list[0];
  return list.length > 0 && Array.isArray(first) ? first : list;
}

function evalDictEntry(r: Doc, entry: DictEntry, ctx: Ctx, dictPath: string): Doc {
  let v = evaluate(entry.value, ctx);
  // The original dereferences string values a second time, so a computed "$..." string is read.
  if (typeof v === 'string') v = resolveString(v, ctx, where(entry.value));
  const at: Where = { op: '@dict', path: entry.value.path || dictPath };
  switch (entry.kind.t) {
    case 'plain':
      r[entry.key] = v;
      return r;
    case 'root':
      if (!isMap(v)) return fail(at, `the "$." key copies a map, got ${describe(v)}`);
      return Object.assign(r, v);
    default: {
      const ref = entry.kind.ref;
      if (!ref.ok) return fail(at, ref.error);
      if (ref.subject) return fail(at, `cannot set ${JSON.stringify(entry.key)}: $$ paths are read-only`);
      try {
        return setPath(r, ref.path, v) as Doc;
      } catch (e) {
        return fail(at, `cannot set ${JSON.stringify(entry.key)}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}

export function evalDict(entries: readonly DictEntry[], ctx: Ctx, path: string): Doc {
  let r: Doc = {};
  for (const entry of entries) r = evalDictEntry(r, entry, ctx, path);
  return r;
}

export function evaluate(e: Expr, ctx: Ctx): unknown {
  switch (e.t) {
    case 'bool':
    case 'int':
    case 'float':
      return e.value;
    case 'str': {
      const v = resolveString(e.value, ctx, where(e), e.ref);
      return v === '@now' ? rfc3339(ctx.now()) : v;
    }
    case 'list':
      return unpack(e.items.map((x) => evaluate(x, ctx)));
    case 'dict':
      return evalDict(e.entries, ctx, e.path);
    default: {
      const fn = ops.get(e.op);
      if (fn === undefined) throw new ExpressionError(e.op, e.path, `unknown op ${JSON.stringify(e.op)}`);
      return fn(e, ctx);
    }
  }
}

/** The items of a lazily evaluated argument: a literal list gives its items, anything else one item. */
export function argItems(node: OpExpr): readonly Expr[] {
  return node.arg.t === 'list' ? node.arg.items : [node.arg];
}
