import type { JsonValue } from '../registry/types.js';

type Step = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; value: string } };

/**
 * The subset of kubectl JSONPath that printer columns use: `.a.b`, `['a.b']`, `[0]`, `[*]` and
 * `[?(@.type=="Ready")]` filters. Returns every match, in order.
 */
export function evalJsonPath(obj: JsonValue, path: string): JsonValue[] {
  let current: JsonValue[] = [obj];
  for (const step of parse(path)) {
    const next: JsonValue[] = [];
    for (const v of current) {
      if ('field' in step) {
        if (v && typeof v === 'object' && !Array.isArray(v) && v[step.field] !== undefined) next.push(v[step.field]!);
      } else if ('index' in step) {
        if (Array.isArray(v)) {
          const i = step.index < 0 ? v.length + step.index : step.index;
          if (v[i] !== undefined) next.push(v[i]!);
        }
      } else if ('all' in step) {
        if (Array.isArray(v)) next.push(...v);
        else if (v && typeof v === 'object') next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        for (const el of v) {
          const got = evalJsonPath(el, '.' + step.filter.path.join('.'))[0];
          if (got !== undefined && String(got) === step.filter.value) next.push(el);
        }
      }
    }
    current = next;
  }
  return current;
}

function parse(path: string): Step[] {
  const steps: Step[] = [];
  let p = path.trim().replace(/^\{(.*)\}$/, '$1').replace(/^\$/, '');
  while (p.length) {
    let m: RegExpExecArray | null;
    if ((m = /^\.([^.[\]]+)/.exec(p))) steps.push({ field: m[1]! });
    else if ((m = /^\[\*\]/.exec(p))) steps.push({ all: true });
    else if ((m = /^\[(-?\d+)\]/.exec(p))) steps.push({ index: Number(m[1]) });
    else if ((m = /^\[['"]([^'"]+)['"]\]/.exec(p))) steps.push({ field: m[1]! });
    else if ((m = /^\[\?\(@\.([\w.-]+)\s*==\s*["']([^"']*)["']\)\]/.exec(p))) steps.push({ filter: { path: m[1]!.split('.'), value: m[2]! } });
    else throw new Error(`unsupported JSONPath at "${p}"`);
    p = p.slice(m[0].length);
  }
  return steps;
}
