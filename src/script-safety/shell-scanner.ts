// Reads a shell script the way bash splits it, far enough to know where each template action
// stands: inside which quotes (so its reference is quoted right), and in which word of which
// simple command (so shell-commands.ts can tell a data position from a name or code position).
// It is not a full parser: what it does not recognise ends up in a position that is refused.

import { QUOTED_DOLLAR } from './shell-refs.js';

/** The script-level constructs that let a value reach a name or code without a visible position. */
export type ScriptConstruct = 'indirect' | 'expanding-code-heredoc';

export interface Word {
  /** The word's text with this level's quotes removed; nested substitutions verbatim; \u0001 per action. */
  text: string;
  /** Actions whose value is (part of) this word, directly or through $( ), ` `, <( ). */
  actions: number[];
  /** Contains a $ expansion or a command substitution, whose value is not known statically. */
  expands: boolean;
  /** Source offset of the word's first character. */
  start: number;
  redirect: 'output' | 'input' | 'herestring' | undefined;
  /** An element of a compound array assignment NAME=( … ). */
  element: boolean;
}

export interface Command {
  words: Word[];
  /** `[[ … ]]`: words are operands and operators, not a command and arguments. */
  test: boolean;
  /** A pattern list of a case statement (`a|b)`). */
  pattern: boolean;
  /** Known once the command ended: it reads its standard input as code (`bash <<EOF`, `… | sh`). */
  stdinIsCode: boolean;
  /** Its standard input is a heredoc. */
  heredoc: boolean;
  /** The command whose output is piped into this one (`a | b`: b's is a). */
  pipedFrom?: Command;
}

interface Heredoc {
  delim: string;
  quoted: boolean;
  stripTabs: boolean;
  owner: Command;
}

interface CodeFrame {
  kind: 'code';
  /** Closes when `parens` returns to 0 ($( … ), (( … )), $(( … )), <( … )). */
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
  command: Command;
  word: Word | null;
  /** Inside NAME=( … ). */
  compound: boolean;
  /** Between `in`/`;;` and `)` of a case statement. */
  casePattern: boolean;
  redirect: Word['redirect'];
  params: Param[];
  /** Arithmetic frames: the expression's text so far, and the source offset it starts at. */
  raw: string;
  start: number;
}
interface DoubleFrame {
  kind: 'double';
  params: Param[];
  /** The body of an unquoted heredoc: expanded like "…", but a `"` there is text. */
  heredoc?: true;
}
type Frame = CodeFrame | DoubleFrame;

/** An open ${ … }: the text after `${` so far. */
interface Param {
  text: string;
  /** Source offset of the `$`. */
  start: number;
}

export type Place = 'code' | 'double' | 'single' | 'ansi' | 'comment' | 'heredoc';

const HEREDOC = /^<<(-?)[ \t]*(?:'([^']*)'|"([^"]*)"|\\?([A-Za-z0-9_.-]+))/;

const newCommand = (): Command => ({ words: [], test: false, pattern: false, stdinIsCode: false, heredoc: false });

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
  command: newCommand(),
  word: null,
  compound: false,
  casePattern: false,
  redirect: undefined,
  params: [],
  raw: '',
  start: 0,
  ...over,
});

export interface ScannerHooks {
  /** A simple command ended (not for arithmetic frames). */
  command(cmd: Command): void;
  /** A construct that matters for the whole script was seen at a source offset. */
  construct(what: ScriptConstruct, offset: number): void;
  /** An arithmetic expression ended ((( … )), $(( … )), $[ … ]): its text and where it starts. */
  arithmetic?(text: string, offset: number): void;
  /** A ${ … } ended: the text inside the braces and the offset of its `$`. */
  param?(text: string, offset: number): void;
}

export class ShellScanner {
  private frames: Frame[] = [code()];
  private quote: 'single' | 'ansi' | null = null;
  private comment = false;
  private wordStart = true;
  private pending: Heredoc[] = [];
  heredoc: Heredoc | null = null;
  /**
   * An unquoted heredoc's body is expanded like a "…" string, $(( )), ${ } and $( ) included: a
   * scanner of its own reads it (with the same hooks), so what stands there is seen too.
   */
  body: ShellScanner | null = null;
  private bodyText = '';
  private bodyFrom = 0;
  private isBody = false;
  private line = '';
  /** Source offset of the character being read. */
  private offset: (i: number) => number = (i) => i;

  constructor(private readonly hooks: ScannerHooks) {}

  private static forBody(hooks: ScannerHooks): ShellScanner {
    const s = new ShellScanner(hooks);
    s.isBody = true;
    s.frames.push({ kind: 'double', params: [], heredoc: true });
    return s;
  }

  private startHeredoc(doc: Heredoc | null): void {
    this.body?.finish();
    this.heredoc = doc;
    this.body = doc && !doc.quoted ? ShellScanner.forBody(this.hooks) : null;
  }

  /** Hands the heredoc text read so far to the body's scanner (before an action, a newline, the end of a feed). */
  private flushBody(extra = ''): void {
    const text = this.bodyText + extra;
    this.bodyText = '';
    if (!this.body || !text) return;
    const from = this.bodyFrom;
    const offset = this.offset;
    this.body.feed(text, (j) => offset(from + j));
  }

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

  private codeFrames(): CodeFrame[] {
    return this.frames.filter((f): f is CodeFrame => f.kind === 'code');
  }

  /** The innermost open ${ … } of the current quoting level, if any. */
  get param(): Param | undefined {
    return this.top.params.at(-1);
  }

  /**
   * Adds text to the current word of every enclosing command: the innermost one gets it unless it
   * is a quote character of its own level, outer ones see nested substitutions verbatim.
   */
  private emit(text: string, own = true, offset = 0): void {
    const frames = this.codeFrames();
    frames.forEach((f, k) => {
      if (k === frames.length - 1 && !own) return;
      f.word ??= { text: '', actions: [], expands: false, start: offset, redirect: f.redirect, element: f.compound };
      f.redirect = undefined;
      f.word.text += text;
      if (f.arithmetic) f.raw += text;
    });
    for (const f of this.frames) for (const p of f.params) p.text += text;
  }

  private markExpansion(): void {
    for (const f of this.codeFrames()) if (f.word) f.word.expands = true;
  }

  /** Ends the current word of the innermost command. */
  private endWord(frame: CodeFrame): void {
    const w = frame.word;
    if (!w) return;
    frame.word = null;
    frame.command.words.push(w);
    if (frame.command.words.length === 3 && w.text === 'in' && frame.command.words[0]?.text === 'case') {
      this.endCommand(frame);
      frame.casePattern = true;
    }
  }

  private endCommand(frame: CodeFrame): void {
    this.endWord(frame);
    const cmd = frame.command;
    frame.command = newCommand();
    frame.compound = false;
    frame.redirect = undefined;
    if (cmd.words.length && !frame.arithmetic) {
      if (frame.casePattern) {
        cmd.pattern = true;
        if (cmd.words.length === 1 && cmd.words[0]!.text === 'esac') {
          cmd.pattern = false;
          frame.casePattern = false;
        }
      }
      this.hooks.command(cmd);
    }
  }

  private popFrame(): void {
    const f = this.frames.pop();
    if (f?.kind !== 'code') return;
    this.endCommand(f);
    if (f.arithmetic) this.hooks.arithmetic?.(f.raw, f.start);
  }

  /** Feeds text; `offset(i)` is the source offset of its i-th character. */
  feed(text: string, offset: (i: number) => number): void {
    this.offset = offset;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      const next = text[i + 1];
      if (this.heredoc) {
        if (this.body && !this.bodyText) this.bodyFrom = i;
        if (c === '\n') {
          this.flushBody('\n');
          this.endHeredocLine(offset(i));
        } else {
          this.line += c;
          if (this.body) this.bodyText += c;
        }
        continue;
      }
      if (this.comment) {
        if (c === '\n') {
          this.comment = false;
          this.codeNewline(this.codeFrame);
        }
        continue;
      }
      if (this.quote === 'single') {
        if (c === "'") this.quote = null;
        else this.emit(c === '$' ? QUOTED_DOLLAR : c, true, offset(i));
        continue;
      }
      if (this.quote === 'ansi') {
        this.emit(c === '$' ? QUOTED_DOLLAR : c, c !== "'", offset(i));
        if (c === '\\') {
          this.emit(next ?? '', true, offset(i));
          i++;
        } else if (c === "'") this.quote = null;
        continue;
      }
      const top = this.top;
      if (top.kind === 'double') {
        i += this.doubleChar(text, i, top);
        continue;
      }
      i += this.codeChar(text, i, top);
    }
    this.flushBody();
  }

  /** `${` opens a parameter expansion at this quoting level; `${!` reads a name from a value. */
  private openParam(text: string, i: number): number {
    this.emit('${', true, this.offset(i));
    this.markExpansion();
    if (text[i + 2] === '!') this.hooks.construct('indirect', this.offset(i));
    this.top.params.push({ text: '', start: this.offset(i) });
    return 1;
  }

  private closeParam(): boolean {
    const p = this.top.params.pop();
    if (!p) return false;
    this.emit('}');
    this.hooks.param?.(p.text, p.start);
    return true;
  }

  private doubleChar(text: string, i: number, top: DoubleFrame): number {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\') {
      this.emit(next === '$' ? QUOTED_DOLLAR : c + (next ?? ''), true, this.offset(i));
      return 1;
    }
    if (c === '"' && top.params.length === 0 && !top.heredoc) {
      this.frames.pop();
      return 0;
    }
    if (c === '}' && this.closeParam()) return 0;
    if (c === '$' && next === '{') return this.openParam(text, i);
    if (c === '$' && next === '(') return this.openDollarParen(text, i);
    if (c === '$' && next === '[') return this.openBracketArith(i);
    if (c === '`') {
      this.emit(c, true, this.offset(i));
      this.markExpansion();
      this.frames.push(code({ backtick: true }));
      return 0;
    }
    if (c === '$' && next !== undefined && /[A-Za-z_0-9@*#?$!-]/.test(next)) this.markExpansion();
    this.emit(c, true, this.offset(i));
    return 0;
  }

  private openBracketArith(i: number): number {
    this.emit('$[', true, this.offset(i));
    this.markExpansion();
    this.frames.push(code({ closesOnBracket: true, brackets: 1, arithmetic: true, start: this.offset(i) }));
    return 1;
  }

  /** Handles one character in code; returns how many extra characters it consumed. */
  private codeChar(text: string, i: number, top: CodeFrame): number {
    const c = text[i]!;
    const next = text[i + 1];
    const at = this.offset(i);
    const atWordStart = this.wordStart;
    this.wordStart = false;
    if (c === '\\') {
      if (next === '\n') return 1;
      this.emit(next === '$' ? QUOTED_DOLLAR : (next ?? ''), true, at);
      return 1;
    }
    if (c === "'") {
      this.emit('', true, at);
      this.quote = 'single';
      return 0;
    }
    if (c === '$' && next === "'") {
      this.emit('', true, at);
      this.quote = 'ansi';
      return 1;
    }
    if (c === '"') {
      this.emit('', true, at);
      this.frames.push({ kind: 'double', params: [] });
      return 0;
    }
    if (c === '}' && this.closeParam()) return 0;
    if (c === '$' && next === '{') return this.openParam(text, i);
    if (c === '$' && next === '(') {
      this.wordStart = true;
      return this.openDollarParen(text, i);
    }
    if (c === '$' && next === '[') return this.openBracketArith(i);
    if ((c === '<' || c === '>') && next === '(' && !top.test) {
      this.endWord(top);
      this.emit(`${c}(`, true, at);
      this.markExpansion();
      this.frames.push(code({ closesOnParen: true, parens: 1 }));
      this.wordStart = true;
      return 1;
    }
    if (c === '`') {
      if (top.backtick) {
        this.popFrame();
        this.emit('`');
      } else {
        this.emit('`', true, at);
        this.markExpansion();
        this.frames.push(code({ backtick: true }));
      }
      this.wordStart = true;
      return 0;
    }
    if (top.arithmetic) return this.arithmeticChar(c, next, at, top);
    if (atWordStart && c === '(' && next === '(') {
      this.emit('((', true, at);
      this.frames.push(code({ closesOnParen: true, parens: 2, arithmetic: true, start: at }));
      this.wordStart = true;
      return 1;
    }
    if (atWordStart && c === '[' && next === '[' && /\s/.test(text[i + 2] ?? ' ')) {
      this.endCommand(top);
      top.test = true;
      top.command.test = true;
      this.emit('[[', true, at);
      return 1;
    }
    if (atWordStart && c === ']' && next === ']' && top.test) {
      this.endWord(top);
      this.emit(']]', true, at);
      this.endWord(top);
      top.test = false;
      this.endCommand(top);
      return 1;
    }
    if (atWordStart && /^let\s/.test(text.slice(i, i + 4))) top.letCommand = true;
    if (c === '#' && atWordStart) {
      this.comment = true;
      return 0;
    }
    if (c === ' ' || c === '\t') {
      this.endWord(top);
      // Outer words see a nested substitution verbatim, separators included.
      this.emit(c, false);
      this.wordStart = true;
      return 0;
    }
    if (c === '\n') {
      this.codeNewline(top);
      return 0;
    }
    if (top.test) return this.testChar(c, next, at, top);
    if (c === '$' && next !== undefined && /[A-Za-z_0-9@*#?$!-]/.test(next)) {
      this.emit(c, true, at);
      this.markExpansion();
      return 0;
    }
    if (c === '[') top.brackets++;
    else if (c === ']') top.brackets--;
    if (c === '(') {
      if (top.word && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(top.word.text) && !top.compound) {
        // NAME=( … ): the elements are words of this command.
        this.endWord(top);
        top.compound = true;
        this.wordStart = true;
        return 0;
      }
      top.parens++;
      this.endCommand(top);
      this.wordStart = true;
      return 0;
    }
    if (c === ')') {
      if (top.compound) {
        this.endWord(top);
        top.compound = false;
        return 0;
      }
      if (top.casePattern) {
        this.endCommand(top);
        top.casePattern = false;
        this.wordStart = true;
        return 0;
      }
      top.parens--;
      if (top.closesOnParen && top.parens === 0) {
        this.popFrame();
        this.emit(')');
      } else this.endCommand(top);
      this.wordStart = true;
      return 0;
    }
    if (c === '<' && next === '<' && text[i + 2] !== '<') {
      const m = HEREDOC.exec(text.slice(i));
      if (m) {
        this.dropFdWord(top);
        const quoted = m[2] !== undefined || m[3] !== undefined || m[0].includes('\\');
        this.pending.push({
          delim: (m[2] ?? m[3] ?? m[4]) as string,
          quoted,
          stripTabs: m[1] === '-',
          owner: top.command,
        });
        top.command.heredoc = true;
        this.wordStart = true;
        return m[0].length - 1;
      }
    }
    if (c === '<' || c === '>' || (c === '&' && next === '>')) return this.redirection(text, i, top);
    if (c === '|' && top.casePattern) {
      this.endWord(top);
      this.wordStart = true;
      return 0;
    }
    if (c === ';' || c === '&' || c === '|') {
      const ended = top.command;
      this.endCommand(top);
      this.emit(c, false);
      if (c === '|' && next !== '|') top.command.pipedFrom = ended;
      top.letCommand = false;
      this.wordStart = true;
      if (c === ';' && next === ';') {
        top.casePattern = true;
        return text[i + 2] === '&' ? 2 : 1;
      }
      if (c === ';' && next === '&') {
        top.casePattern = true;
        return 1;
      }
      return next === c || (c === '|' && next === '&') ? 1 : 0;
    }
    this.emit(c, true, at);
    return 0;
  }

  /** `2>`, `{fd}>`: the digits before a redirection are not a word. */
  private dropFdWord(top: CodeFrame): void {
    if (top.word && /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(top.word.text) && top.word.actions.length === 0)
      top.word = null;
    else this.endWord(top);
  }

  private redirection(text: string, i: number, top: CodeFrame): number {
    this.dropFdWord(top);
    const op = /^(?:&>>?|<<<|<>|<&|>&|>>|>\||<|>)/.exec(text.slice(i))?.[0] ?? text[i]!;
    top.redirect = op === '<<<' ? 'herestring' : op === '<' || op === '<&' || op === '<>' ? 'input' : 'output';
    this.wordStart = true;
    return op.length - 1;
  }

  /** Inside [[ … ]]: && || ( ) < > ! are words of the test, not command syntax. */
  private testChar(c: string, next: string | undefined, at: number, top: CodeFrame): number {
    if ('&|<>()!'.includes(c)) {
      this.endWord(top);
      const two = (c === '&' || c === '|') && next === c;
      this.emit(two ? c + c : c, true, at);
      this.endWord(top);
      this.wordStart = true;
      return two ? 1 : 0;
    }
    // Emitted first: a `$` that starts an operand starts its word, which must exist to be marked.
    this.emit(c, true, at);
    if (c === '$' && next !== undefined && /[A-Za-z_0-9@*#?$!-]/.test(next)) this.markExpansion();
    return 0;
  }

  /** Arithmetic frames: only the brackets and parens that close them matter. */
  private arithmeticChar(c: string, next: string | undefined, at: number, top: CodeFrame): number {
    this.emit(c, true, at);
    if (c === '$' && next !== undefined && /[A-Za-z_0-9@*#?$!-]/.test(next)) this.markExpansion();
    if (c === '[') top.brackets++;
    else if (c === ']') {
      top.brackets--;
      if (top.closesOnBracket && top.brackets === 0) this.popFrame();
    } else if (c === '(') top.parens++;
    else if (c === ')') {
      top.parens--;
      if (top.closesOnParen && top.parens === 0) this.popFrame();
    }
    return 0;
  }

  private openDollarParen(text: string, i: number): number {
    this.markExpansionAfter('$(', i);
    this.wordStart = true;
    if (text[i + 2] === '(') {
      this.emit('(', true, this.offset(i));
      this.frames.push(code({ closesOnParen: true, parens: 2, arithmetic: true, start: this.offset(i) }));
      return 2;
    }
    this.frames.push(code({ closesOnParen: true, parens: 1 }));
    return 1;
  }

  private markExpansionAfter(text: string, i: number): void {
    this.emit(text, true, this.offset(i));
    this.markExpansion();
  }

  private codeNewline(top: CodeFrame): void {
    this.emit('\n', false);
    this.wordStart = true;
    top.letCommand = false;
    if (top.compound || top.test) this.endWord(top);
    else this.endCommand(top);
    this.startHeredoc(this.pending.shift() ?? null);
    this.line = '';
  }

  private endHeredocLine(at: number): void {
    const doc = this.heredoc!;
    const line = doc.stripTabs ? this.line.replace(/^\t+/, '') : this.line;
    this.line = '';
    if (line === doc.delim) this.startHeredoc(this.pending.shift() ?? null);
    // `bash <<EOF` … `$v` … : the expansion becomes code.
    else if (!doc.quoted && doc.owner.stdinIsCode && /[$`]/.test(line))
      this.hooks.construct('expanding-code-heredoc', at - line.length);
  }

  /** Ends the script: the last command is complete. */
  finish(): void {
    this.body?.finish();
    while (this.frames.length > 1) this.popFrame();
    // A heredoc body's own text is not a command.
    if (!this.isBody) this.endCommand(this.frames[0] as CodeFrame);
  }

  place(): Place {
    if (this.heredoc) return 'heredoc';
    if (this.comment) return 'comment';
    if (this.quote) return this.quote;
    return this.top.kind;
  }

  /** Records an action at the current position: part of the current word of every enclosing command. */
  action(index: number, offset: number): void {
    const place = this.place();
    if (place === 'heredoc') {
      // Marks the line so that no delimiter line can be formed around an action.
      this.line += '\u0000';
      this.body?.action(index, offset);
      return;
    }
    if (place === 'comment') return;
    this.emit('\u0001', true, offset);
    for (const f of this.codeFrames()) f.word?.actions.push(index);
    this.wordStart = false;
  }
}
