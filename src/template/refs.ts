// Lists the root-relative field paths a template reads, for offline validation of Flows (e.g.
// checking `.Resource.spec.replicas` against the watched CRD's schema) without rendering.
// Paths relative to a `with` are resolved against it; inside `range` the element's fields have no
// root path and are left out, but the ranged-over path itself is listed.

import type { Expr, Node, Pipeline } from './ast.js';
import { asParseError } from './errors.js';
import { parse } from './parser.js';
import { DEFAULT_NAME } from './template.js';

type Scope = Map<string, string | null>;

export function templateRefs(src: string, opts: { name?: string } = {}): string[] {
  let nodes: Node[];
  try {
    // Any identifier is accepted as a function here: function names are checked when the
    // template is compiled with the caller's real function table.
    nodes = parse(src, () => true);
  } catch (err) {
    throw asParseError(err, src, opts.name ?? DEFAULT_NAME);
  }
  const found = new Set<string>();
  walk(nodes, '', new Map([['$', '']]), found);
  return [...found];
}

function join(base: string, path: string[]): string {
  return base + path.map((p) => `.${p}`).join('');
}

/** The root path an expression denotes, when it is a plain field/variable chain. */
function pathOf(e: Expr | undefined, dot: string | null, scope: Scope): string | null {
  if (!e) return null;
  if (e.kind === 'field') return dot === null ? null : join(dot, e.path);
  if (e.kind === 'variable') {
    const base = scope.get(e.name);
    return base === undefined || base === null ? null : join(base, e.path);
  }
  if (e.kind === 'dot') return dot;
  return null;
}

function pipePath(pipe: Pipeline, dot: string | null, scope: Scope): string | null {
  const only = pipe.cmds.length === 1 ? pipe.cmds[0]?.args : undefined;
  return only && only.length === 1 ? pathOf(only[0], dot, scope) : null;
}

function visitExpr(e: Expr, dot: string | null, scope: Scope, found: Set<string>): void {
  if ((e.kind === 'field' || e.kind === 'variable') && e.path.length > 0) {
    const p = pathOf(e, dot, scope);
    if (p) found.add(p);
  } else if (e.kind === 'chain') {
    visitExpr(e.base, dot, scope, found);
  } else if (e.kind === 'pipe') {
    visitPipe(e.pipe, dot, scope, found);
  }
}

function visitPipe(pipe: Pipeline, dot: string | null, scope: Scope, found: Set<string>): void {
  for (const cmd of pipe.cmds) for (const a of cmd.args) visitExpr(a, dot, scope, found);
}

function declare(pipe: Pipeline, value: string | null, scope: Scope): void {
  for (const d of pipe.decls) scope.set(d, value);
}

function walk(nodes: Node[], dot: string | null, outer: Scope, found: Set<string>): void {
  const scope: Scope = new Map(outer);
  for (const node of nodes) {
    switch (node.kind) {
      case 'action':
        visitPipe(node.pipe, dot, scope, found);
        declare(node.pipe, pipePath(node.pipe, dot, scope), scope);
        break;
      case 'if':
      case 'with': {
        visitPipe(node.pipe, dot, scope, found);
        const inner: Scope = new Map(scope);
        const value = pipePath(node.pipe, dot, scope);
        declare(node.pipe, value, inner);
        walk(node.list, node.kind === 'with' ? value : dot, inner, found);
        if (node.elseList) walk(node.elseList, dot, inner, found);
        break;
      }
      case 'range': {
        visitPipe(node.pipe, dot, scope, found);
        const inner: Scope = new Map(scope);
        declare(node.pipe, null, inner);
        walk(node.list, null, inner, found);
        if (node.elseList) walk(node.elseList, dot, inner, found);
        break;
      }
      default:
        break;
    }
  }
}
