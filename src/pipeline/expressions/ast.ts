// Expression syntax trees and the JSON/YAML-to-tree parser of spec §4.1. Every node carries its
// location (`pipeline[0].@select.@and[1]`) so an evaluation error can say where it happened.

import { PipelineParseError } from '../errors.js';
import { parseJsonPathCached, type JsonPath } from '../../jsonpath/index.js';
import { isMap } from '../../util/json-value.js';

/** A `$`-string parsed ahead of time; a malformed path is reported only when evaluated. */
export type PathRef =
  | { readonly ok: true; readonly subject: boolean; readonly path: JsonPath }
  | { readonly ok: false; readonly error: string };

export type Expr =
  | { readonly t: 'bool'; readonly value: boolean; readonly path: string }
  | { readonly t: 'int' | 'float'; readonly value: number; readonly path: string }
  | { readonly t: 'str'; readonly value: string; readonly ref?: PathRef; readonly path: string }
  | { readonly t: 'list'; readonly items: readonly Expr[]; readonly path: string }
  | { readonly t: 'dict'; readonly entries: readonly DictEntry[]; readonly path: string }
  | OpExpr;

export interface OpExpr {
  readonly t: 'op';
  readonly op: string;
  readonly arg: Expr;
  readonly path: string;
}

/** `root` is the `"$."` copy-everything key; `set` a JSONPath setter; `plain` a verbatim key. */
export type DictKey = { readonly t: 'plain' } | { readonly t: 'root' } | { readonly t: 'set'; readonly ref: PathRef };

export interface DictEntry {
  readonly key: string;
  readonly kind: DictKey;
  readonly value: Expr;
}

const int64Limit = 2 ** 63;

/** Parses a `$...` / `$$...` string; `$.` and `$$.` mean the root itself. */
export function parsePathRef(s: string): PathRef {
  const subject = s.startsWith('$$');
  let src = subject ? s.slice(1) : s;
  if (src === '$.') src = '$';
  try {
    return { ok: true, subject, path: parseJsonPathCached(src) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_@][\w@-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function parseDict(raw: Record<string, unknown>, path: string): Expr {
  const entries: DictEntry[] = Object.keys(raw).map((key) => {
    let kind: DictKey = { t: 'plain' };
    if (key === '$.' || key === '$') kind = { t: 'root' };
    else if (key.startsWith('$')) kind = { t: 'set', ref: parsePathRef(key) };
    return { key, kind, value: parseExpression(raw[key], childPath(path, key)) };
  });
  return { t: 'dict', entries, path };
}

/**
 * JSON/YAML value to expression tree. Quirks kept from the original: `null` becomes the boolean
 * `false`, and the empty string cannot be parsed.
 */
export function parseExpression(raw: unknown, path: string): Expr {
  if (raw === null || raw === undefined) return { t: 'bool', value: false, path };
  if (typeof raw === 'boolean') return { t: 'bool', value: raw, path };
  if (typeof raw === 'number') {
    const integral = Number.isInteger(raw) && Math.abs(raw) < int64Limit;
    return { t: integral ? 'int' : 'float', value: raw, path };
  }
  if (typeof raw === 'string') {
    if (raw === '') throw new PipelineParseError('@string', path, 'the empty string is not a valid expression');
    return raw.startsWith('$')
      ? { t: 'str', value: raw, ref: parsePathRef(raw), path }
      : { t: 'str', value: raw, path };
  }
  if (Array.isArray(raw)) return { t: 'list', items: raw.map((x, i) => parseExpression(x, `${path}[${i}]`)), path };
  if (isMap(raw)) {
    const keys = Object.keys(raw);
    const only = keys[0];
    if (keys.length === 1 && only !== undefined && only.startsWith('@')) {
      return { t: 'op', op: only, arg: parseExpression(raw[only], childPath(path, only)), path };
    }
    return parseDict(raw, path);
  }
  throw new PipelineParseError('expression', path, `cannot parse a value of type ${typeof raw}`);
}

/** The operator name to blame for a node (literals count as their constructor op). */
export function opName(e: Expr): string {
  switch (e.t) {
    case 'op':
      return e.op;
    case 'str':
      return '@string';
    default:
      return `@${e.t}`;
  }
}
