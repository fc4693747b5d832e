// Recursive-descent parser following Go's text/template/parse: same grammar, same checks done at
// parse time (undefined variables, unknown functions, stray end/else, break outside range), so a
// Flow with a broken template is rejected by offline validation rather than at reconcile time.

import type { Command, ControlNode, Expr, Node, Pipeline } from './ast.js';
import { PositionedError } from './errors.js';
import { lex, type Token, type TokenType } from './lexer.js';

const MAX_DEPTH = 200;

const UNSUPPORTED_NOTE =
  'FlowOps templates have no named templates (define, template, block and include are not supported)';

interface ListEnd {
  kind: 'end' | 'else' | 'eof';
  pos: number;
}

export function parse(src: string, isFunction: (name: string) => boolean): Node[] {
  return new Parser(src, lex(src), isFunction).parseTemplate();
}

class Parser {
  private i = 0;
  private readonly vars: string[] = ['$'];
  private rangeDepth = 0;
  // Bounds recursion so absurd nesting is a parse error instead of a stack overflow.
  private depth = 0;

  constructor(
    private readonly src: string,
    private readonly toks: Token[],
    private readonly isFunction: (name: string) => boolean,
  ) {}

  parseTemplate(): Node[] {
    const { nodes, end } = this.itemList();
    if (end.kind !== 'eof') throw new PositionedError(end.pos, `unexpected {{${end.kind}}}`);
    return nodes;
  }

  private peek(offset = 0): Token {
    return this.toks[Math.min(this.i + offset, this.toks.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }

  private expect(type: TokenType, context: string): Token {
    const t = this.next();
    if (t.type !== type) throw new PositionedError(t.pos, `unexpected ${describe(t)} in ${context}`);
    return t;
  }

  private itemList(): { nodes: Node[]; end: ListEnd } {
    const nodes: Node[] = [];
    const mark = this.vars.length;
    try {
      for (;;) {
        const t = this.next();
        if (t.type === 'eof') return { nodes, end: { kind: 'eof', pos: t.pos } };
        if (t.type === 'text') {
          nodes.push({ kind: 'text', pos: t.pos, text: t.val });
          continue;
        }
        const k = this.peek();
        if (k.type === 'keyword' && k.val === 'end') {
          this.next();
          this.expect('rdelim', '{{end}}');
          return { nodes, end: { kind: 'end', pos: t.pos } };
        }
        if (k.type === 'keyword' && k.val === 'else') {
          this.next();
          return { nodes, end: { kind: 'else', pos: t.pos } };
        }
        nodes.push(this.action(t.pos));
      }
    } finally {
      // Variables declared inside a body are visible until the end of that body only.
      this.vars.length = mark;
    }
  }

  private action(pos: number): Node {
    const t = this.peek();
    if (t.type === 'keyword') {
      this.next();
      switch (t.val) {
        case 'if':
        case 'with':
        case 'range':
          return this.control(t.val, pos);
        case 'break':
        case 'continue':
          if (this.rangeDepth === 0) throw new PositionedError(t.pos, `{{${t.val}}} outside {{range}}`);
          this.expect('rdelim', `{{${t.val}}}`);
          return { kind: t.val, pos };
        default:
          throw new PositionedError(t.pos, `{{${t.val}}} is not supported: ${UNSUPPORTED_NOTE}`);
      }
    }
    return { kind: 'action', pos, pipe: this.pipeline('command', 'rdelim') };
  }

  private control(kind: ControlNode['kind'], pos: number): ControlNode {
    if (++this.depth > MAX_DEPTH) throw new PositionedError(pos, `template nests deeper than ${MAX_DEPTH} levels`);
    try {
      return this.controlBody(kind, pos);
    } finally {
      this.depth--;
    }
  }

  private controlBody(kind: ControlNode['kind'], pos: number): ControlNode {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, 'rdelim');
    if (kind === 'range') this.rangeDepth++;
    const body = this.itemList();
    if (kind === 'range') this.rangeDepth--;
    let elseList: Node[] | null = null;
    let end = body.end;
    if (end.kind === 'else') {
      const chained = this.peek();
      if (chained.type === 'keyword' && chained.val === kind && kind !== 'range') {
        // `{{else if x}}` is `{{else}}{{if x}}...{{end}}` sharing the outer end, exactly as in Go.
        this.next();
        elseList = [this.control(kind, end.pos)];
        end = { kind: 'end', pos: end.pos };
      } else {
        this.expect('rdelim', '{{else}}');
        const alt = this.itemList();
        elseList = alt.nodes;
        end = alt.end;
        if (end.kind === 'else') throw new PositionedError(end.pos, `unexpected {{else}}: {{${kind}}} already has one`);
      }
    }
    if (end.kind === 'eof') throw new PositionedError(pos, `{{${kind}}} has no matching {{end}}`);
    this.vars.length = mark;
    return { kind, pos, pipe, list: body.nodes, elseList };
  }

  private pipeline(context: string, endType: 'rdelim' | 'rparen'): Pipeline {
    const pos = this.peek().pos;
    if (++this.depth > MAX_DEPTH) throw new PositionedError(pos, `template nests deeper than ${MAX_DEPTH} levels`);
    try {
      return this.pipelineBody(context, endType, pos);
    } finally {
      this.depth--;
    }
  }

  private pipelineBody(context: string, endType: 'rdelim' | 'rparen', pos: number): Pipeline {
    const decls: string[] = [];
    let isAssign = false;
    const first = this.peek();
    const after = this.peek(1);
    if (first.type === 'variable' && (after.type === 'declare' || after.type === 'assign' || after.type === 'comma')) {
      this.next();
      decls.push(first.val);
      if (after.type === 'comma') {
        if (context !== 'range') throw new PositionedError(after.pos, `too many declarations in ${context}`);
        this.next();
        const second = this.next();
        if (second.type !== 'variable') throw new PositionedError(second.pos, 'range can only initialize variables');
        decls.push(second.val);
      }
      const op = this.next();
      if (op.type !== 'declare' && op.type !== 'assign')
        throw new PositionedError(op.pos, `expected := or = after ${decls.join(', ')}`);
      isAssign = op.type === 'assign';
      if (isAssign) for (const d of decls) this.useVar(d, first.pos);
    }

    const cmds: Command[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === endType) {
        this.next();
        break;
      }
      cmds.push(this.command(context, endType));
      if (this.peek().type === 'pipe') {
        const bar = this.next();
        if (this.peek().type === endType) throw new PositionedError(bar.pos, 'missing command after "|"');
      }
    }
    if (cmds.length === 0) throw new PositionedError(pos, `missing value for ${context}`);
    for (const [n, cmd] of cmds.entries()) checkCommand(cmd, n);
    if (!isAssign) this.vars.push(...decls);
    return { pos, decls, isAssign, cmds };
  }

  private command(context: string, endType: 'rdelim' | 'rparen'): Command {
    const pos = this.peek().pos;
    const args: Expr[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === 'pipe' || t.type === endType) break;
      if (t.type === 'rdelim' || t.type === 'eof') throw new PositionedError(t.pos, `unclosed left paren`);
      args.push(this.operand(context));
    }
    if (args.length === 0) throw new PositionedError(pos, `missing value for ${context}`);
    return { pos, args };
  }

  private operand(context: string): Expr {
    const base = this.term(context);
    const fields: Token[] = [];
    while (this.peek().type === 'field' && !this.peek().spaceBefore) fields.push(this.next());
    if (fields.length === 0) return base;
    const last = fields[fields.length - 1] as Token;
    const text = this.src.slice(base.pos, last.pos + 1 + last.val.length);
    const path = fields.map((f) => f.val);
    switch (base.kind) {
      case 'field':
      case 'variable':
        return { ...base, path: [...base.path, ...path], text };
      case 'pipe':
      case 'ident':
        return { kind: 'chain', pos: base.pos, base, path, text };
      default:
        throw new PositionedError(fields[0]?.pos ?? base.pos, `unexpected . after term ${JSON.stringify(text)}`);
    }
  }

  private term(context: string): Expr {
    const t = this.next();
    switch (t.type) {
      case 'ident':
        if (!this.isFunction(t.val)) {
          if (t.val === 'include' || t.val === 'tpl')
            throw new PositionedError(t.pos, `function "${t.val}" is not supported: ${UNSUPPORTED_NOTE}`);
          throw new PositionedError(t.pos, `function "${t.val}" not defined`);
        }
        return { kind: 'ident', pos: t.pos, name: t.val };
      case 'dot':
        return { kind: 'dot', pos: t.pos };
      case 'nil':
        return { kind: 'nil', pos: t.pos };
      case 'bool':
        return { kind: 'bool', pos: t.pos, value: t.val === 'true' };
      case 'number':
        return { kind: 'number', pos: t.pos, value: t.num ?? 0 };
      case 'string':
        return { kind: 'string', pos: t.pos, value: t.val };
      case 'field':
        return { kind: 'field', pos: t.pos, path: [t.val], text: `.${t.val}` };
      case 'variable':
        this.useVar(t.val, t.pos);
        return { kind: 'variable', pos: t.pos, name: t.val, path: [], text: t.val };
      case 'argo':
        // Always root-relative, like `$.Steps...`, so it means the same inside range/with.
        return { kind: 'variable', pos: t.pos, name: '$', path: t.segments ?? [], text: t.val };
      case 'lparen':
        return { kind: 'pipe', pos: t.pos, pipe: this.pipeline('parenthesized pipeline', 'rparen') };
      case 'keyword':
        if (['define', 'template', 'block'].includes(t.val)) {
          throw new PositionedError(t.pos, `{{${t.val}}} is not supported: ${UNSUPPORTED_NOTE}`);
        }
        throw new PositionedError(t.pos, `unexpected ${describe(t)} in ${context}`);
      default:
        throw new PositionedError(t.pos, `unexpected ${describe(t)} in ${context}`);
    }
  }

  private useVar(name: string, pos: number): void {
    if (!this.vars.includes(name)) throw new PositionedError(pos, `undefined variable "${name}"`);
  }
}

function checkCommand(cmd: Command, stage: number): void {
  const head = cmd.args[0] as Expr;
  if (head.kind === 'nil') throw new PositionedError(head.pos, 'nil is not a command');
  if (head.kind === 'ident') return;
  if (cmd.args.length > 1) {
    throw new PositionedError(cmd.args[1]?.pos ?? cmd.pos, `can't give argument to non-function ${describeExpr(head)}`);
  }
  if (stage > 0) {
    throw new PositionedError(
      head.pos,
      `non-function ${describeExpr(head)} in pipeline stage ${stage + 1}: only functions receive the piped value`,
    );
  }
}

function describeExpr(e: Expr): string {
  switch (e.kind) {
    case 'field':
    case 'variable':
    case 'chain':
      return e.text;
    case 'string':
      return JSON.stringify(e.value);
    case 'number':
    case 'bool':
      return String(e.value);
    case 'dot':
      return '.';
    case 'pipe':
      return 'parenthesized pipeline';
    default:
      return e.kind;
  }
}

function describe(t: Token): string {
  switch (t.type) {
    case 'rdelim':
      return '"}}"';
    case 'eof':
      return 'end of template';
    case 'keyword':
      return `keyword "${t.val}"`;
    case 'string':
      return `string ${JSON.stringify(t.val)}`;
    default:
      return `${t.type} ${JSON.stringify(t.val)}`;
  }
}
