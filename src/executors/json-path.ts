// The kubectl JSONPath subset step outputs use: `.a.b[0].c`, `{.a.b}`, `['dotted.key']`, `[*]`,
// `[-1]` and `[?(@.type=="Ready")]`. Kept here rather than imported from the API server so the
// executors do not depend on its internals (it mirrors src/apiserver/table/json-path.ts).

import type { OutputValue } from './types.js';

type Segment = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; value: string } };

export class JsonPathError extends Error {}

export function parseJsonPath(path: string): Segment[] {
  const segments: Segment[] = [];
  let p = path.trim();
  const braced = /^\{(.*)\}$/s.exec(p);
  if (braced) p = (braced[1] as string).trim();
  p = p.replace(/^\$/, '');
  if (p === '' || p === '.') return segments;
  if (!p.startsWith('.') && !p.startsWith('[')) p = '.' + p;
  while (p.length) {
    let m: RegExpExecArray | null;
    if ((m = /^\.([^.[\]{}]+)/.exec(p))) segments.push({ field: m[1] as string });
    else if ((m = /^\[\*\]/.exec(p))) segments.push({ all: true });
    else if ((m = /^\[(-?\d+)\]/.exec(p))) segments.push({ index: Number(m[1]) });
    else if ((m = /^\[['"]([^'"]+)['"]\]/.exec(p))) segments.push({ field: m[1] as string });
    else if ((m = /^\[\?\(@\.([\w.-]+)\s*==\s*["']([^"']*)["']\)\]/.exec(p))) segments.push({ filter: { path: (m[1] as string).split('.'), value: m[2] as string } });
    else throw new JsonPathError(`unsupported JSONPath ${JSON.stringify(path)} at ${JSON.stringify(p)}`);
    p = p.slice(m[0].length);
  }
  return segments;
}

const own = (v: unknown, k: string): unknown =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, k) ? (v as Record<string, unknown>)[k] : undefined;

function step(values: unknown[], s: Segment): unknown[] {
  const next: unknown[] = [];
  for (const v of values) {
    if ('field' in s) {
      const got = own(v, s.field);
      if (got !== undefined) next.push(got);
    } else if ('index' in s) {
      if (Array.isArray(v)) {
        const got: unknown = v[s.index < 0 ? v.length + s.index : s.index];
        if (got !== undefined) next.push(got);
      }
    } else if ('all' in s) {
      if (Array.isArray(v)) next.push(...(v as unknown[]));
      else if (typeof v === 'object' && v !== null) next.push(...Object.values(v));
    } else if (Array.isArray(v)) {
      for (const el of v as unknown[]) {
        const got = s.filter.path.reduce<unknown>((acc, k) => own(acc, k), el);
        if (got !== undefined && String(got) === s.filter.value) next.push(el);
      }
    }
  }
  return next;
}

/** Every match, in order. */
export function evalJsonPath(obj: unknown, path: string): unknown[] {
  return parseJsonPath(path).reduce<unknown[]>(step, [obj]);
}

/** One output value: null when nothing matches, the value for one match, a list for several. */
export function jsonPathOutput(obj: unknown, path: string): OutputValue {
  const found = evalJsonPath(obj, path);
  if (found.length === 0) return null;
  return toOutputValue(found.length === 1 ? found[0] : found);
}

/** JSON-shaped copy: undefined and functions cannot travel through templates or status. */
export function toOutputValue(v: unknown): OutputValue {
  if (v === undefined) return null;
  return JSON.parse(JSON.stringify(v) ?? 'null') as OutputValue;
}
