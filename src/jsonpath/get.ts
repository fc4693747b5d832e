// Reading with a parsed JSONPath. Only the first match is ever used by the language, so the walk
// stops as soon as `limit` matches are found.

import { compareStrings, deepEqual, isMap, isNil } from '../util/json-value.js';
import type { FilterExpr, JsonPath, Step } from './ast.js';

const NOTHING: unique symbol = Symbol('nothing');
type Maybe = unknown | typeof NOTHING;

function sortedKeys(m: Record<string, unknown>): string[] {
  // Go maps have no order; sorting makes "first match" of a wildcard deterministic.
  return Object.keys(m)
    .filter((k) => m[k] !== undefined)
    .sort(compareStrings);
}

/**
 * How a wildcard lists a map's values: `sorted` by key (the pipeline dialect, as ojg does, so a first
 * match is deterministic) or in `document` order (kubectl's paths, as the object reads).
 */
export type MapOrder = 'sorted' | 'document';

function children(node: unknown, order: MapOrder): unknown[] {
  if (Array.isArray(node)) return node;
  if (!isMap(node)) return [];
  const keys = order === 'sorted' ? sortedKeys(node) : Object.keys(node).filter((k) => node[k] !== undefined);
  return keys.map((k) => node[k]);
}

function sliceIndices(len: number, step: Extract<Step, { t: 'slice' }>): number[] {
  const by = step.step ?? 1;
  const norm = (i: number): number => (i < 0 ? Math.max(len + i, by > 0 ? 0 : -1) : Math.min(i, len));
  const out: number[] = [];
  if (by > 0) {
    const start = norm(step.start ?? 0);
    const end = norm(step.end ?? len);
    for (let i = start; i < end; i += by) out.push(i);
  } else {
    const start = step.start === undefined ? len - 1 : Math.min(norm(step.start), len - 1);
    const end = step.end === undefined ? -1 : norm(step.end);
    for (let i = start; i > end; i += by) out.push(i);
  }
  return out;
}

class Walker {
  readonly out: unknown[] = [];
  constructor(
    readonly root: unknown,
    readonly limit: number,
    readonly order: MapOrder,
  ) {}

  full(): boolean {
    return this.out.length >= this.limit;
  }

  walk(node: unknown, steps: readonly Step[], i: number): void {
    if (this.full()) return;
    if (i === steps.length) {
      if (node !== undefined) this.out.push(node);
      return;
    }
    const step = steps[i] as Step;
    for (const next of this.apply(node, step)) {
      this.walk(next, steps, i + 1);
      if (this.full()) return;
    }
  }

  apply(node: unknown, step: Step): unknown[] {
    switch (step.t) {
      case 'child':
        // Own keys only: a path never reads the prototype (`.constructor`, `.__proto__`).
        return isMap(node) && Object.hasOwn(node, step.name) && node[step.name] !== undefined ? [node[step.name]] : [];
      case 'index': {
        if (!Array.isArray(node)) return [];
        const idx = step.index < 0 ? node.length + step.index : step.index;
        return idx >= 0 && idx < node.length ? [node[idx]] : [];
      }
      case 'wild':
        return children(node, this.order);
      case 'slice':
        return Array.isArray(node) ? sliceIndices(node.length, step).map((i) => node[i]) : [];
      case 'union':
        return step.items.flatMap((it) => this.apply(node, it));
      case 'filter':
        return children(node, this.order).filter((c) => truthy(evalFilter(step.expr, c, this.root)));
      case 'descent':
        return descendants(node, this.order).flatMap((d) => this.apply(d, step.step));
      default:
        return [];
    }
  }
}

function descendants(node: unknown, order: MapOrder): unknown[] {
  const out: unknown[] = [node];
  for (const c of children(node, order)) if (Array.isArray(c) || isMap(c)) out.push(...descendants(c, order));
  return out;
}

/** All matches (up to `limit`) of `path` against `root` (and `current` for `@` paths). */
export function getAll(
  path: JsonPath,
  root: unknown,
  current: unknown = root,
  limit = Infinity,
  order: MapOrder = 'sorted',
): unknown[] {
  const w = new Walker(root, limit, order);
  w.walk(path.root === '$' ? root : current, path.steps, 0);
  return w.out;
}

/** The first match, or undefined when nothing matches (never an error). */
export function getFirst(path: JsonPath, root: unknown, current: unknown = root): unknown {
  if (path.steps.length === 0) return path.root === '$' ? root : current;
  return getAll(path, root, current, 1)[0];
}

function truthy(v: Maybe): boolean {
  if (v === NOTHING || isNil(v)) return false;
  return v !== false;
}

function operand(e: FilterExpr, current: unknown, root: unknown): Maybe {
  if (e.t === 'path') {
    const got = getAll(e.path, root, current, 1);
    return got.length === 0 ? NOTHING : got[0];
  }
  if (e.t === 'lit') return e.value;
  if (e.t === 'regex') return e.re;
  return evalFilter(e, current, root);
}

function order(l: Maybe, r: Maybe): number | undefined {
  if (typeof l === 'number' && typeof r === 'number') return l < r ? -1 : l > r ? 1 : 0;
  if (typeof l === 'string' && typeof r === 'string') return compareStrings(l, r);
  return undefined;
}

function compare(op: string, l: Maybe, r: Maybe): boolean {
  const lv = l === NOTHING ? null : l;
  const rv = r === NOTHING ? null : r;
  switch (op) {
    case '==':
      return deepEqual(lv, rv);
    case '!=':
      return !deepEqual(lv, rv);
    case 'in':
      return Array.isArray(rv) && rv.some((x) => deepEqual(x, lv));
    case '=~': {
      if (typeof lv !== 'string') return false;
      const re = rv instanceof RegExp ? rv : typeof rv === 'string' ? new RegExp(rv) : undefined;
      return re?.test(lv) ?? false;
    }
    default: {
      const c = order(lv, rv);
      if (c === undefined) return false;
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
  }
}

function evalFilter(e: FilterExpr, current: unknown, root: unknown): Maybe {
  switch (e.t) {
    case 'not':
      return !truthy(evalFilter(e.e, current, root));
    case 'and':
      return truthy(evalFilter(e.l, current, root)) && truthy(evalFilter(e.r, current, root));
    case 'or':
      return truthy(evalFilter(e.l, current, root)) || truthy(evalFilter(e.r, current, root));
    case 'cmp':
      return compare(e.op, operand(e.l, current, root), operand(e.r, current, root));
    default:
      return operand(e, current, root);
  }
}

/** Filter test used by the setter, which walks the same way. */
export function filterMatches(e: FilterExpr, current: unknown, root: unknown): boolean {
  return truthy(evalFilter(e, current, root));
}
