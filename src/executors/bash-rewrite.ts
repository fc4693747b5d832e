// Rewrites a shell script's template actions into environment variable references.
//
// Why: rendering values into script text lets a resource field run code — a name of
// `x; rm -rf /` or `$(curl evil)` becomes shell syntax. Instead, each `{{ … }}` becomes a
// reference to FLOWOPS_T<i>, whose value is the rendered text. The shell expands a variable once
// and never parses the result as code, so a value stays data.
//
// The reference is quoted for where it stands, or word splitting and globbing would still mangle
// the value (`a b` → two words, `*` → file names):
//   plain code            "${FLOWOPS_T0}"
//   inside "…"            ${FLOWOPS_T0}
//   inside '…'            '"${FLOWOPS_T0}"'     (close, expand quoted, reopen)
//   inside $'…'           '"${FLOWOPS_T0}"$'
//   unquoted heredoc body ${FLOWOPS_T0}         (expanded there, never split)
//   quoted heredoc body   — nothing expands there: rejected with a hint
// so `if [[ {{ .Resource.spec.replicas }} -lt 1 ]]` keeps working.
//
// One hole remains in bash itself: ARITHMETIC evaluates the text of a variable as an expression,
// and an array subscript in it runs command substitution — `[[ "$v" -lt 1 ]]` with
// v='a[$(touch /tmp/x)]' runs touch, quotes or not. So actions in arithmetic positions (operands
// of -eq/-lt/… inside [[ ]], (( )), $(( )), $[ ], let, array subscripts, ${s:offset}, and
// assignments when the script declares integer variables) are reported to the caller, which
// accepts only integer values there.

import type { TemplatePart } from './template-actions.js';

interface Heredoc {
  delim: string;
  quoted: boolean;
  stripTabs: boolean;
}

interface CodeFrame {
  kind: 'code';
  /** Closes when `parens` returns to 0 ($( … ), (( … )), $(( … ))). */
  closesOnParen: boolean;
  /** Closes on the `]` of `$[ … ]`. */
  closesOnBracket: boolean;
  backtick: boolean;
  parens: number;
  brackets: number;
  arithmetic: boolean;
  /** Inside `[[ … ]]`. */
  test: boolean;
  /** After `let` until the end of the command. */
  letCommand: boolean;
}
type Frame = CodeFrame | { kind: 'double' };

const HEREDOC = /^<<(-?)[ \t]*(?:'([^']*)'|"([^"]*)"|\\?([A-Za-z0-9_.\-]+))/;
const ARITH_OP = '-(?:eq|ne|lt|le|gt|ge)';
const OP_BEFORE = new RegExp(`(?:^|\\s)${ARITH_OP}\\s+["']?$`);
const OP_AFTER = new RegExp(`^["']?\\s+${ARITH_OP}(?:\\s|$)`);
const SUBSCRIPT_BEFORE = /[A-Za-z_][A-Za-z0-9_]*\[["']?$/;
const OFFSET_BEFORE = /\$\{[A-Za-z_][A-Za-z0-9_]*:["']?$/;
const ASSIGN_BEFORE = /(?:^|[\s;&|(])[A-Za-z_][A-Za-z0-9_]*\+?=["']?$/;
const INTEGER_DECL = /(?:^|[\s;&|(])(?:declare|typeset|local|readonly|export)\s+-[A-Za-z]*i/;

export class ShellRewriteError extends Error {}

const code = (over: Partial<CodeFrame> = {}): CodeFrame => ({
  kind: 'code',
  closesOnParen: false,
  closesOnBracket: false,
  backtick: false,
  parens: 0,
  brackets: 0,
  arithmetic: false,
  test: false,
  letCommand: false,
  ...over,
});

type Place = 'code' | 'double' | 'single' | 'ansi' | 'comment' | 'heredoc';

class ShellScanner {
  private frames: Frame[] = [code()];
  private quote: 'single' | 'ansi' | null = null;
  private comment = false;
  private wordStart = true;
  private pending: Heredoc[] = [];
  private heredoc: Heredoc | null = null;
  private line = '';

  private get top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** The innermost code frame (a "…" inside $(( … )) is still arithmetic). */
  get codeFrame(): CodeFrame {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i]!;
      if (f.kind === 'code') return f;
    }
    return this.frames[0] as CodeFrame;
  }

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      const next = text[i + 1];
      if (this.heredoc) {
        if (c === '\n') this.endHeredocLine();
        else this.line += c;
        continue;
      }
      if (this.comment) {
        if (c === '\n') this.newline();
        continue;
      }
      if (this.quote === 'single') {
        if (c === "'") this.quote = null;
        continue;
      }
      if (this.quote === 'ansi') {
        if (c === '\\') i++;
        else if (c === "'") this.quote = null;
        continue;
      }
      const top = this.top;
      if (top.kind === 'double') {
        if (c === '\\') i++;
        else if (c === '"') this.frames.pop();
        else if (c === '$' && next === '(') i += this.openDollarParen(text, i);
        else if (c === '$' && next === '[') {
          this.frames.push(code({ closesOnBracket: true, brackets: 1, arithmetic: true }));
          i++;
        } else if (c === '`') this.frames.push(code({ backtick: true }));
        continue;
      }
      i += this.codeChar(text, i, top);
    }
  }

  /** Handles one character in code; returns how many extra characters it consumed. */
  private codeChar(text: string, i: number, top: CodeFrame): number {
    const c = text[i]!;
    const next = text[i + 1];
    const atWordStart = this.wordStart;
    this.wordStart = false;
    if (c === '\\') return 1;
    if (c === "'") {
      this.quote = 'single';
      return 0;
    }
    if (c === '$' && next === "'") {
      this.quote = 'ansi';
      return 1;
    }
    if (c === '"') {
      this.frames.push({ kind: 'double' });
      return 0;
    }
    if (c === '$' && next === '(') {
      this.wordStart = true;
      return this.openDollarParen(text, i);
    }
    if (c === '$' && next === '[') {
      this.frames.push(code({ closesOnBracket: true, brackets: 1, arithmetic: true }));
      return 1;
    }
    if (c === '`') {
      if (top.backtick) this.frames.pop();
      else this.frames.push(code({ backtick: true }));
      this.wordStart = true;
      return 0;
    }
    if (atWordStart && c === '(' && next === '(') {
      this.frames.push(code({ closesOnParen: true, parens: 2, arithmetic: true }));
      this.wordStart = true;
      return 1;
    }
    if (atWordStart && c === '[' && next === '[' && /\s/.test(text[i + 2] ?? ' ')) {
      top.test = true;
      return 1;
    }
    if (atWordStart && c === ']' && next === ']') {
      top.test = false;
      return 1;
    }
    if (atWordStart && /^let\s/.test(text.slice(i, i + 4))) {
      top.letCommand = true;
      return 2;
    }
    if (c === '[') top.brackets++;
    else if (c === ']') {
      top.brackets--;
      if (top.closesOnBracket && top.brackets === 0) this.frames.pop();
    } else if (c === '(') {
      top.parens++;
      this.wordStart = true;
    } else if (c === ')') {
      top.parens--;
      if (top.closesOnParen && top.parens === 0) this.frames.pop();
      this.wordStart = true;
    } else if (c === '#' && atWordStart) this.comment = true;
    else if (c === '<' && next === '<' && text[i + 2] !== '<') {
      const m = HEREDOC.exec(text.slice(i));
      if (m) {
        const quoted = m[2] !== undefined || m[3] !== undefined || m[0].includes('\\');
        this.pending.push({ delim: (m[2] ?? m[3] ?? m[4]) as string, quoted, stripTabs: m[1] === '-' });
        return m[0].length - 1;
      }
    } else if (c === '\n') this.newline();
    else if (c === ';' || c === '&' || c === '|') {
      top.letCommand = false;
      this.wordStart = true;
    } else this.wordStart = /\s|<|>/.test(c);
    return 0;
  }

  private openDollarParen(text: string, i: number): number {
    if (text[i + 2] === '(') {
      this.frames.push(code({ closesOnParen: true, parens: 2, arithmetic: true }));
      return 2;
    }
    this.frames.push(code({ closesOnParen: true, parens: 1 }));
    return 1;
  }

  private newline(): void {
    this.comment = false;
    this.wordStart = true;
    this.codeFrame.letCommand = false;
    this.heredoc = this.pending.shift() ?? null;
    this.line = '';
  }

  private endHeredocLine(): void {
    const doc = this.heredoc!;
    const line = doc.stripTabs ? this.line.replace(/^\t+/, '') : this.line;
    this.line = '';
    if (line === doc.delim) this.heredoc = this.pending.shift() ?? null;
  }

  place(): Place {
    if (this.heredoc) return 'heredoc';
    if (this.comment) return 'comment';
    if (this.quote) return this.quote;
    return this.top.kind;
  }

  /** The reference text for an action here; the action then counts as part of a word. */
  reference(name: string): string {
    const plain = '${' + name + '}';
    switch (this.place()) {
      case 'heredoc':
        // Marks the line so that no delimiter line can be formed around an action.
        this.line += '\u0000';
        if (this.heredoc!.quoted) {
          throw new ShellRewriteError(
            `a template action inside a quoted heredoc (<<'${this.heredoc!.delim}') is never expanded; use an unquoted heredoc or pass the value through the step's env`,
          );
        }
        return plain;
      case 'comment':
      case 'double':
        return plain;
      case 'single':
        return `'"${plain}"'`;
      case 'ansi':
        return `'"${plain}"$'`;
      case 'code':
        this.wordStart = false;
        return `"${plain}"`;
    }
  }
}

export interface ShellRewrite {
  script: string;
  /** Indexes (among the actions) whose value bash evaluates as arithmetic. */
  arithmetic: number[];
}

/** `names[i]` is the variable for the i-th action part. */
export function rewriteShell(parts: TemplatePart[], names: string[]): ShellRewrite {
  const scanner = new ShellScanner();
  const integerVars = parts.some((p) => p.kind === 'text' && INTEGER_DECL.test(p.text));
  const arithmetic: number[] = [];
  let out = '';
  let n = 0;
  parts.forEach((part, k) => {
    if (part.kind === 'text') {
      scanner.feed(part.text);
      out += part.text;
      return;
    }
    const before = parts[k - 1]?.kind === 'text' ? (parts[k - 1] as { text: string }).text : '';
    const after = parts[k + 1]?.kind === 'text' ? (parts[k + 1] as { text: string }).text : '';
    const place = scanner.place();
    const frame = scanner.codeFrame;
    const expanded = place === 'code' || place === 'double' || place === 'heredoc';
    const inArithmetic =
      expanded &&
      (frame.arithmetic ||
        frame.letCommand ||
        (frame.test && (OP_BEFORE.test(before) || OP_AFTER.test(after))) ||
        SUBSCRIPT_BEFORE.test(before) ||
        OFFSET_BEFORE.test(before) ||
        (integerVars && place !== 'heredoc' && ASSIGN_BEFORE.test(before)));
    if (inArithmetic) arithmetic.push(n);
    out += scanner.reference(names[n++]!);
  });
  return { script: out, arithmetic };
}

/** What bash arithmetic can take without evaluating names: an integer, or nothing (0). */
export function isArithmeticSafe(value: string): boolean {
  return /^\s*(?:[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+))?\s*$/.test(value);
}
