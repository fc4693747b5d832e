// Executes a parsed template directly over JSON-like data with Go text/template semantics:
// pipelines pass the previous value as the LAST argument, `and`/`or` short-circuit and return the
// deciding value, range over maps visits sorted keys, variables are scoped to their block.

import type { Command, ControlNode, Expr, Node, Pipeline } from './ast.js';
import { FunctionError, PositionedError } from './errors.js';
import type { CallContext, FuncTable } from './functions.js';
import { formatValue, isMap, isNil, Missing, missingError, ownValue, sortedKeys, truth, typeName } from './values.js';

export type ActionNode = Extract<Node, { kind: 'action' }>;

/** The evaluated arguments of the last function an action's pipeline called, if it ended in a call. */
export interface FinalCall {
  name: string;
  args: unknown[];
}

/**
 * Turns an action's value into output text; renderManifest swaps in placeholders here.
 * `offset` is where the text will start in the output.
 */
export type Emitter = (value: unknown, node: ActionNode, finalCall: FinalCall | null, offset: number) => string;

export interface ExecOptions {
  funcs: FuncTable;
  manifest: boolean;
  emit?: Emitter;
}

type Signal = 'break' | 'continue' | null;

/** Marks "no piped value" so that a pipeline can pass nil/undefined on as a real value. */
const NO_FINAL: unique symbol = Symbol('no final');
type Final = unknown;

// Runaway templates (`range` over a huge number taken from a resource field, nested ranges) must
// fail rather than exhaust memory or hold a worker forever.
const MAX_OUTPUT = 16 * 1024 * 1024;
const MAX_STEPS = 5_000_000;

export const printValue: Emitter = (value) => formatValue(value, '');

export class Executor {
  private readonly vars: { name: string; value: unknown }[] = [];
  private readonly out: string[] = [];
  private size = 0;
  private steps = 0;
  private readonly ctx: CallContext;
  private readonly emit: Emitter;
  private finalCall: FinalCall | null = null;

  constructor(
    data: unknown,
    private readonly opts: ExecOptions,
  ) {
    this.vars.push({ name: '$', value: data });
    this.ctx = { manifest: opts.manifest };
    this.emit = opts.emit ?? printValue;
  }

  run(nodes: Node[]): string {
    this.walk(nodes, this.vars[0]?.value);
    return this.out.join('');
  }

  /** The raw value of one action, for renderValue (`when:` and typed fields). */
  valueOf(node: ActionNode): unknown {
    const dot = this.vars[0]?.value;
    const v = this.pipeline(dot, node.pipe);
    if (v instanceof Missing) throw missingError(v);
    return v;
  }

  private write(s: string): void {
    this.size += s.length;
    if (this.size > MAX_OUTPUT) throw new PositionedError(0, `output exceeds ${MAX_OUTPUT} characters`);
    this.out.push(s);
  }

  private walk(nodes: Node[], dot: unknown): Signal {
    const mark = this.vars.length;
    try {
      for (const node of nodes) {
        const sig = this.walkNode(node, dot);
        if (sig) return sig;
      }
      return null;
    } finally {
      this.vars.length = mark;
    }
  }

  private walkNode(node: Node, dot: unknown): Signal {
    if (++this.steps > MAX_STEPS) throw new PositionedError(node.pos, `template exceeded ${MAX_STEPS} execution steps`);
    switch (node.kind) {
      case 'text':
        this.write(node.text);
        return null;
      case 'action': {
        const v = this.pipeline(dot, node.pipe, true);
        if (v instanceof Missing) throw missingError(v);
        if (node.pipe.decls.length > 0) this.bind(node.pipe, [v]);
        else this.write(this.emit(v, node, this.finalCall, this.size));
        return null;
      }
      case 'break':
      case 'continue':
        return node.kind;
      case 'if':
      case 'with': {
        const mark = this.vars.length;
        try {
          let v = this.pipeline(dot, node.pipe);
          // Conditions are where a missing field legitimately means "not set".
          if (v instanceof Missing) v = null;
          this.bind(node.pipe, [v]);
          if (truth(v)) return this.walk(node.list, node.kind === 'with' ? v : dot);
          return node.elseList ? this.walk(node.elseList, dot) : null;
        } finally {
          this.vars.length = mark;
        }
      }
      case 'range':
        return this.range(node, dot);
    }
  }

  private range(node: ControlNode, dot: unknown): Signal {
    const mark = this.vars.length;
    try {
      const v = this.pipeline(dot, node.pipe);
      if (v instanceof Missing) throw missingError(v);
      let count: number;
      let item: (i: number) => [unknown, unknown];
      if (Array.isArray(v)) {
        count = v.length;
        item = (i) => [i, v[i]];
      } else if (isMap(v)) {
        const keys = sortedKeys(v);
        count = keys.length;
        item = (i) => [keys[i], v[keys[i] as string]];
      } else if (isNil(v)) {
        count = 0;
        item = () => [null, null];
      } else if (typeof v === 'number' && Number.isInteger(v)) {
        if (node.pipe.decls.length > 1)
          throw new PositionedError(
            node.pos,
            `can't use ${node.pipe.decls.length} variables when ranging over an integer`,
          );
        count = Math.max(v, 0);
        item = (i) => [i, i];
      } else throw new PositionedError(node.pipe.pos, `range can't iterate over ${formatValue(v)} (${typeName(v)})`);

      if (count === 0) return node.elseList ? this.walk(node.elseList, dot) : null;
      // Declarations occupy fixed slots that each iteration overwrites, as in Go.
      this.bind(node.pipe, node.pipe.decls.length === 2 ? [null, null] : [null]);
      for (let i = 0; i < count; i++) {
        if (++this.steps > MAX_STEPS)
          throw new PositionedError(node.pos, `template exceeded ${MAX_STEPS} execution steps`);
        const [key, elem] = item(i);
        this.setRangeVars(node.pipe, key, elem);
        const sig = this.walk(node.list, elem);
        if (sig === 'break') break;
      }
      return null;
    } finally {
      this.vars.length = mark;
    }
  }

  private setRangeVars(pipe: Pipeline, key: unknown, elem: unknown): void {
    const d = pipe.decls;
    if (d.length === 0) return;
    const values = d.length === 2 ? [key, elem] : [elem];
    for (const [i, name] of d.entries())
      this.assign(name, values[i], pipe.isAssign ? undefined : this.vars.length - d.length + i);
  }

  private bind(pipe: Pipeline, values: unknown[]): void {
    pipe.decls.forEach((name, i) => {
      const value = values[Math.min(i, values.length - 1)];
      if (pipe.isAssign) this.assign(name, value);
      else this.vars.push({ name, value });
    });
  }

  private assign(name: string, value: unknown, slot?: number): void {
    if (slot !== undefined) {
      (this.vars[slot] as { value: unknown }).value = value;
      return;
    }
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i] as { name: string; value: unknown };
      if (v.name === name) {
        v.value = value;
        return;
      }
    }
    throw new PositionedError(0, `undefined variable "${name}"`);
  }

  private lookup(name: string, pos: number): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i] as { name: string; value: unknown };
      if (v.name === name) return v.value;
    }
    throw new PositionedError(pos, `undefined variable "${name}"`);
  }

  /**
   * May return a Missing; the caller decides whether that is acceptable. With `capture`, the
   * arguments of a final function call are kept in `finalCall` for the emitter.
   */
  private pipeline(dot: unknown, pipe: Pipeline, capture = false): unknown {
    let value: Final = NO_FINAL;
    pipe.cmds.forEach((cmd, i) => {
      value = this.command(dot, cmd, value, capture && i === pipe.cmds.length - 1);
    });
    return value;
  }

  private command(dot: unknown, cmd: Command, final: Final, capture: boolean): unknown {
    const head = cmd.args[0] as Expr;
    this.finalCall = null;
    if (head.kind === 'ident') return this.call(dot, head.name, head.pos, cmd.args.slice(1), final, capture);
    // The parser already rejected arguments (or a piped value) for anything but a function.
    return this.arg(dot, head);
  }

  private arg(dot: unknown, e: Expr): unknown {
    switch (e.kind) {
      case 'field':
        return this.fields(dot, e.path, e.pos, e.text);
      case 'variable':
        return this.fields(this.lookup(e.name, e.pos), e.path, e.pos, e.text);
      case 'chain': {
        const base =
          e.base.kind === 'ident' ? this.call(dot, e.base.name, e.base.pos, [], NO_FINAL) : this.arg(dot, e.base);
        if (base instanceof Missing) throw missingError(base);
        return this.fields(base, e.path, e.pos, e.text);
      }
      case 'ident':
        return this.call(dot, e.name, e.pos, [], NO_FINAL);
      case 'pipe': {
        const v = this.pipeline(dot, e.pipe);
        if (e.pipe.decls.length > 0) {
          if (v instanceof Missing) throw missingError(v);
          this.bind(e.pipe, [v]);
        }
        return v;
      }
      case 'dot':
        return dot;
      case 'nil':
        return null;
      case 'string':
      case 'number':
      case 'bool':
        return e.value;
    }
  }

  /** Walks `.a.b.c`; a missing key or a nil on the way yields a Missing naming the whole path. */
  private fields(base: unknown, path: string[], pos: number, text: string): unknown {
    let cur = base;
    for (const key of path) {
      if (isNil(cur)) return new Missing(pos, text, `nil value has no field "${key}"`);
      if (!isMap(cur))
        throw new PositionedError(pos, `can't evaluate field ${key} in type ${typeName(cur)} at ${text}`);
      const { found, value } = ownValue(cur, key);
      if (!found) return new Missing(pos, text, `map has no entry for key "${key}"`);
      cur = value === undefined ? null : value;
    }
    return cur;
  }

  private call(dot: unknown, name: string, pos: number, argExprs: Expr[], final: Final, capture = false): unknown {
    const fn = this.opts.funcs.get(name);
    if (!fn) throw new PositionedError(pos, `function "${name}" not defined`);
    const count = argExprs.length + (final === NO_FINAL ? 0 : 1);
    if (count < fn.min || count > fn.max) {
      const want =
        fn.max === Infinity ? `at least ${fn.min}` : fn.min === fn.max ? `${fn.min}` : `${fn.min} to ${fn.max}`;
      throw new PositionedError(pos, `wrong number of args for ${name}: want ${want} got ${count}`);
    }
    const pull = (i: number): unknown => {
      const v = i < argExprs.length ? this.arg(dot, argExprs[i] as Expr) : final;
      if (!(v instanceof Missing)) return v;
      if (fn.acceptsMissing) return null;
      throw missingError(v);
    };

    if (fn.lazy) {
      let v: unknown = null;
      for (let i = 0; i < count; i++) {
        v = pull(i);
        if (truth(v) === (fn.lazy === 'or')) return v;
      }
      return v;
    }

    const args = Array.from({ length: count }, (_, i) => pull(i));
    if (capture) this.finalCall = { name, args };
    try {
      const result = fn.fn(args, this.ctx);
      return result === undefined ? null : result;
    } catch (err) {
      if (err instanceof PositionedError) throw err;
      if (err instanceof FunctionError) throw new PositionedError(pos, err.message, { cause: err });
      const msg = err instanceof Error ? err.message : String(err);
      throw new PositionedError(pos, `error calling ${name}: ${msg}`, { cause: err });
    }
  }
}
