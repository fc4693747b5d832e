// Coercions of spec §4.4. Each throws an ExpressionError naming the operator that asked.

import { ExpressionError } from '../errors.js';
import { goBadVerb } from './gofmt.js';
import { describe, isInt } from '../../util/json-value.js';

/** The operator and position an error is reported against. */
export interface Where {
  readonly op: string;
  readonly path: string;
}

export function fail(where: Where, detail: string): never {
  throw new ExpressionError(where.op, where.path, detail);
}

export function asBool(v: unknown, where: Where, what = 'argument'): boolean {
  if (typeof v === 'boolean') return v;
  return fail(where, `${what} must be a boolean, got ${describe(v)}`);
}

const intString = /^[+-]?\d+$/;
const floatString = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;

/** Ints and base-10 integer strings; floats are rejected. Returns undefined when not an int. */
export function toInt(v: unknown): number | undefined {
  if (isInt(v)) return v;
  if (typeof v === 'string' && intString.test(v)) return Number.parseInt(v, 10);
  return undefined;
}

/** Ints, floats and numeric strings. Returns undefined when not a number. */
export function toFloat(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && floatString.test(v)) {
    const low = v.toLowerCase().replace(/^\+/, '');
    if (low.endsWith('nan')) return Number.NaN;
    if (low.endsWith('inf') || low.endsWith('infinity')) return low.startsWith('-') ? -Infinity : Infinity;
    return Number.parseFloat(v);
  }
  return undefined;
}

export function asInt(v: unknown, where: Where): number {
  const i = toInt(v);
  return i === undefined ? fail(where, `expected an integer, got ${describe(v)}`) : i;
}

export function asFloat(v: unknown, where: Where): number {
  const f = toFloat(v);
  return f === undefined ? fail(where, `expected a number, got ${describe(v)}`) : f;
}

/** Strings pass, ints print in decimal, floats come out the way Go's `%d` garbles them. */
export function asString(v: unknown, where: Where): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return isInt(v) ? String(v) : goBadVerb('d', v);
  return fail(where, `expected a string or a number, got ${describe(v)}`);
}

export function asList(v: unknown, where: Where, what = 'argument'): unknown[] {
  if (Array.isArray(v)) return v;
  return fail(where, `${what} must be a list, got ${describe(v)}`);
}

/** A numeric list: all-int if every item converts to int, otherwise all-float. */
export interface NumList {
  readonly ints: boolean;
  readonly values: number[];
}

export function asNumList(v: unknown, where: Where): NumList {
  const items = asList(v, where);
  const ints: number[] = [];
  for (const x of items) {
    const i = toInt(x);
    if (i === undefined) break;
    ints.push(i);
  }
  if (ints.length === items.length) return { ints: true, values: ints };
  const floats = items.map((x) => {
    const f = toFloat(x);
    return f === undefined ? fail(where, `expected numeric arguments, got ${describe(x)}`) : f;
  });
  return { ints: false, values: floats };
}

export function asNumPair(v: unknown, where: Where): NumList & { values: [number, number] } {
  const items = asList(v, where);
  if (items.length !== 2) fail(where, `expected 2 arguments, got ${items.length}`);
  return asNumList(items, where) as NumList & { values: [number, number] };
}
