// Walks a parsed template with the type of its data, the way the evaluator walks it with the data
// itself: `with` narrows the dot, `range` gives the element type, variables keep the type they
// were declared with, pipelines pass the previous type on as the last argument. What it finds is
// what would fail (or print nonsense) at run time, found before anything runs.

import type { Command, Expr, Node, Pipeline } from '../template/index.js';
import { BUILTINS } from '../template/functions.js';
import { Findings } from './problems.js';
import { SIGNATURES } from './signatures.js';
import { didYouMean } from './suggest.js';
import { BOOLEAN, describeTy, INTEGER, isScalar, NULL, NUMBER, STRING, UNKNOWN, type Ty } from './types.js';

/** Where a value may come up empty: the first optional field of its chain that nothing guards. */
interface Absence {
  offset: number;
  text: string;
  why: string;
}

interface Val {
  ty: Ty;
  /** The root-relative path (`.Resource.spec.x`) when the value is a plain field chain, for guards. */
  path: string | null;
  /** Its field path inside the object it was read from (`spec.x`), for messages. */
  rel: string;
  absent: Absence | null;
}

interface Env {
  dot: Val;
  vars: Map<string, Val>;
  guards: ReadonlySet<string>;
}

export type Mode = 'text' | 'value' | 'manifest';

export interface TemplateCheck {
  findings: Findings;
  /** The type each output action (by its offset) produces; the manifest check uses them. */
  actionTypes: Map<number, Ty>;
}

const MAX_NODES = 20_000;

/** A field chain's text up to its `i`th field (`.a.b.c`, 1 → `.a.b`), for messages only. */
function chainUpTo(text: string, i: number): string {
  return text
    .split('.')
    .slice(0, i + 2)
    .join('.');
}
const known = (ty: Ty): Val => ({ ty, path: null, rel: '', absent: null });

export function checkTemplate(nodes: readonly Node[], root: Ty, mode: Mode): TemplateCheck {
  const checker = new Checker(mode);
  const rootVal: Val = { ty: root, path: '', rel: '', absent: null };
  const single =
    nodes.filter((n) => n.kind !== 'text' || n.text.trim() !== '').length === 1 &&
    nodes.some((n) => n.kind === 'action');
  checker.singleAction = single;
  checker.walk(nodes, { dot: rootVal, vars: new Map([['$', rootVal]]), guards: new Set() });
  return { findings: checker.findings, actionTypes: checker.actionTypes };
}

class Checker {
  readonly findings = new Findings();
  readonly actionTypes = new Map<number, Ty>();
  singleAction = false;
  private visited = 0;

  constructor(private readonly mode: Mode) {}

  walk(nodes: readonly Node[], outer: Env): void {
    const env: Env = { ...outer, vars: new Map(outer.vars) };
    for (const node of nodes) {
      // A pathological template is checked up to a bound; the rest is simply not claimed about.
      if (++this.visited > MAX_NODES) return;
      this.node(node, env);
    }
  }

  private node(node: Node, env: Env): void {
    switch (node.kind) {
      case 'action': {
        const v = this.pipeline(node.pipe, env);
        this.use(v);
        if (node.pipe.decls.length > 0) this.declare(node.pipe, [v], env);
        else this.output(node.pos, v);
        return;
      }
      case 'if':
      case 'with': {
        const v = this.pipeline(node.pipe, env, true);
        const inner: Env = {
          ...env,
          vars: new Map(env.vars),
          guards: new Set([...env.guards, ...guardsOf(node.pipe, env, this)]),
        };
        const narrowed: Val = { ...v, absent: null };
        this.declare(node.pipe, [narrowed], inner);
        this.walk(node.list, node.kind === 'with' ? { ...inner, dot: narrowed } : inner);
        if (node.elseList) {
          const alt: Env = { ...env, vars: new Map(env.vars) };
          this.declare(node.pipe, [narrowed], alt);
          this.walk(node.elseList, alt);
        }
        return;
      }
      case 'range':
        this.range(node.pos, node.pipe, node.list, node.elseList, env);
        return;
      default:
        return;
    }
  }

  private range(pos: number, pipe: Pipeline, list: readonly Node[], elseList: readonly Node[] | null, env: Env): void {
    const v = this.pipeline(pipe, env);
    this.use(v);
    let key: Ty = UNKNOWN;
    let elem: Ty = UNKNOWN;
    const ty = v.ty;
    if (ty.kind === 'array') [key, elem] = [INTEGER, ty.items];
    else if (ty.kind === 'object') [key, elem] = [STRING, ty.fieldNames().length === 0 && ty.rest ? ty.rest : UNKNOWN];
    else if (ty.kind === 'integer') {
      [key, elem] = [INTEGER, INTEGER];
      if (pipe.decls.length > 1)
        this.findings.error(pos, `can't use ${pipe.decls.length} variables when ranging over an integer`);
    } else if (ty.kind === 'string' || ty.kind === 'boolean' || ty.kind === 'number') {
      this.findings.error(
        pipe.pos,
        `range can't iterate over ${describeTy(ty)}${v.path ? ` (${v.path})` : ''}: expected a list or a map`,
      );
    }
    const inner: Env = { ...env, vars: new Map(env.vars) };
    // An element is read from the same object as the list: its fields' paths go on from `spec.users[]`.
    const elemVal: Val = { ty: elem, path: null, rel: v.rel ? `${v.rel}[]` : '', absent: null };
    if (pipe.decls.length === 2) this.declare(pipe, [known(key), elemVal], inner);
    else this.declare(pipe, [elemVal], inner);
    this.walk(list, { ...inner, dot: elemVal });
    if (elseList) this.walk(elseList, env);
  }

  private declare(pipe: Pipeline, values: Val[], env: Env): void {
    pipe.decls.forEach((name, i) => {
      const v = values[Math.min(i, values.length - 1)] ?? known(UNKNOWN);
      // `$x = …` may give a variable another type than it was declared with: then it is unknown.
      const prev = pipe.isAssign ? env.vars.get(name) : undefined;
      env.vars.set(name, prev && prev.ty.kind !== v.ty.kind ? known(UNKNOWN) : { ...v, absent: null });
    });
  }

  /** A value that reaches output, a variable or a function that needs it set. */
  private use(v: Val): void {
    if (v.absent)
      this.findings.warning(
        v.absent.offset,
        `${v.absent.text} may be absent (${v.absent.why}): the template then fails; ` +
          'give it a default or guard it with if/with',
      );
  }

  private output(pos: number, v: Val): void {
    this.actionTypes.set(pos, v.ty);
    if (this.mode === 'manifest') return;
    if (this.mode === 'value' && this.singleAction) return;
    if (v.ty.kind === 'object' || v.ty.kind === 'array') {
      this.findings.error(
        pos,
        `prints ${describeTy(v.ty)}${v.path ? ` (${v.path})` : ''} as text; pick a field, or use toJson/toYaml`,
      );
    }
  }

  pipeline(pipe: Pipeline, env: Env, condition = false): Val {
    let final: Val | undefined;
    for (const cmd of pipe.cmds) final = this.command(cmd, env, final);
    const v = final ?? known(UNKNOWN);
    // In a condition a missing field is simply false.
    return condition ? { ...v, absent: null } : v;
  }

  private command(cmd: Command, env: Env, final: Val | undefined): Val {
    const head = cmd.args[0];
    if (!head) return known(UNKNOWN);
    if (head.kind === 'ident') return this.call(head.name, head.pos, cmd.args.slice(1), env, final);
    return this.expr(head, env);
  }

  expr(e: Expr, env: Env): Val {
    switch (e.kind) {
      case 'field':
        return this.fields(env.dot, e.path, e.pos, e.text, env);
      case 'variable': {
        const base = env.vars.get(e.name) ?? known(UNKNOWN);
        return this.fields(base, e.path, e.pos, e.text, env);
      }
      case 'chain': {
        const base =
          e.base.kind === 'ident' ? this.call(e.base.name, e.base.pos, [], env, undefined) : this.expr(e.base, env);
        this.use(base);
        return this.fields({ ...base, absent: null }, e.path, e.pos, e.text, env);
      }
      case 'ident':
        return this.call(e.name, e.pos, [], env, undefined);
      case 'pipe': {
        const v = this.pipeline(e.pipe, env);
        if (e.pipe.decls.length > 0) {
          this.use(v);
          this.declare(e.pipe, [v], env);
        }
        return v;
      }
      case 'dot':
        return env.dot;
      case 'nil':
        return known(NULL);
      case 'string':
        return known(STRING);
      case 'number':
        return known(Number.isInteger(e.value) ? INTEGER : NUMBER);
      case 'bool':
        return known(BOOLEAN);
    }
  }

  /** `.a.b.c` from a base value: unknown fields are errors, optional ones make the value maybe-absent. */
  private fields(base: Val, path: readonly string[], pos: number, text: string, env: Env): Val {
    let cur = base;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i] ?? '';
      const ty = cur.ty;
      const nextPath = cur.path === null ? null : `${cur.path}.${seg}`;
      const rel = cur.rel ? `${cur.rel}.${seg}` : seg;
      if (ty.kind === 'unknown' || ty.kind === 'null') return { ty: UNKNOWN, path: nextPath, rel, absent: cur.absent };
      if (ty.kind === 'object') {
        const f = ty.field(seg);
        if (!f) {
          if (ty.rest) {
            cur = { ty: ty.rest, path: nextPath, rel, absent: cur.absent };
            continue;
          }
          this.findings.error(pos, `unknown field "${rel}" in ${ty.what}${didYouMean(seg, ty.fieldNames())}`);
          return { ty: UNKNOWN, path: nextPath, rel, absent: null };
        }
        let absent = cur.absent;
        if (!absent && f.mayBeAbsent && !isGuarded(nextPath, env.guards)) {
          const why = `${ty.what} ${rel} is not required and has no default`;
          absent = { offset: pos, text: chainUpTo(text, i), why };
        }
        // Entering another object (the watched kind from the data's root) starts its own field path.
        const own = f.ty.kind === 'object' && f.ty.what !== ty.what ? '' : rel;
        cur = { ty: f.ty, path: nextPath, rel: own, absent };
        continue;
      }
      this.findings.error(pos, `${chainUpTo(text, i)}: can't read field "${seg}" of ${describeTy(ty)}`);
      return { ty: UNKNOWN, path: nextPath, rel, absent: null };
    }
    return cur;
  }

  private call(name: string, pos: number, argExprs: readonly Expr[], env: Env, final: Val | undefined): Val {
    const def = BUILTINS.get(name);
    const args = argExprs.map((a) => this.expr(a, env));
    if (final) args.push(final);
    if (!def?.acceptsMissing) for (const a of args) this.use(a);
    const sig = SIGNATURES.get(name);
    if (sig?.args) for (const a of args) this.checkArg(name, sig.args, a, pos);
    if (name === 'index') return this.index(args, argExprs, pos);
    if (name === 'required') return { ...(args[args.length - 1] ?? known(UNKNOWN)), absent: null };
    return known(sig ? sig.result(args.map((a) => a.ty)) : UNKNOWN);
  }

  private checkArg(name: string, rule: 'number' | 'text', a: Val, pos: number): void {
    const shown = a.path ? ` (${a.path})` : '';
    if (rule === 'number' && (a.ty.kind === 'string' || a.ty.kind === 'object' || a.ty.kind === 'array')) {
      const hint = a.ty.kind === 'string' ? ': convert it with int or atoi' : '';
      this.findings.error(pos, `${name} takes numbers, got ${describeTy(a.ty)}${shown}${hint}`);
    } else if (rule === 'text' && (a.ty.kind === 'object' || a.ty.kind === 'array')) {
      this.findings.error(
        pos,
        `${name} takes text, got ${describeTy(a.ty)}${shown}; pick a field, or use toJson/toYaml`,
      );
    }
  }

  /** `index x k…`: a literal key is checked like a field; any other key gives the map's or list's element. */
  private index(args: readonly Val[], exprs: readonly Expr[], pos: number): Val {
    let cur = args[0] ?? known(UNKNOWN);
    for (const [i, key] of args.slice(1).entries()) {
      const ty = cur.ty;
      const e = exprs[i + 1];
      if (ty.kind === 'array') cur = known(ty.items);
      else if (ty.kind === 'object') {
        const literal = e?.kind === 'string' ? e.value : undefined;
        const f = literal === undefined ? undefined : ty.field(literal);
        if (f) cur = known(f.ty);
        else if (ty.rest) cur = known(ty.rest);
        else if (literal !== undefined) {
          this.findings.error(pos, `unknown field "${literal}" in ${ty.what}${didYouMean(literal, ty.fieldNames())}`);
          return known(UNKNOWN);
        } else return known(UNKNOWN);
      } else if (isScalar(ty) && key.ty.kind !== 'unknown') {
        this.findings.error(pos, `can't index ${describeTy(ty)}`);
        return known(UNKNOWN);
      } else return known(UNKNOWN);
    }
    return { ...cur, path: null };
  }
}

function isGuarded(path: string | null, guards: ReadonlySet<string>): boolean {
  if (path === null) return false;
  for (const g of guards) if (g === path || g.startsWith(`${path}.`)) return true;
  return false;
}

/** The paths an `if`/`with` condition proves present in its body: `.a`, `and .a .b`, `hasKey .a "k"`. */
function guardsOf(pipe: Pipeline, env: Env, checker: Checker): string[] {
  const cmd = pipe.cmds.length === 1 ? pipe.cmds[0] : undefined;
  if (!cmd) return [];
  const head = cmd.args[0];
  const pathOf = (e: Expr | undefined): string | null => {
    if (!e || (e.kind !== 'field' && e.kind !== 'variable' && e.kind !== 'dot')) return null;
    return checker.expr(e, { ...env, guards: new Set() }).path;
  };
  if (head?.kind === 'ident' && head.name === 'and') return cmd.args.slice(1).flatMap((a) => pathOf(a) ?? []);
  if (head?.kind === 'ident' && head.name === 'hasKey') {
    const base = pathOf(cmd.args[1]);
    const key = cmd.args[2];
    return base !== null && key?.kind === 'string' ? [`${base}.${key.value}`] : [];
  }
  if (cmd.args.length === 1) {
    const p = pathOf(head);
    return p === null ? [] : [p];
  }
  return [];
}
