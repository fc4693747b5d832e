// Turns template source into a flat token stream the way Go's text/template lexer does: text
// runs, then `{{` ... `}}` with the tokens of the action between them. Trim markers are applied
// here (they only affect neighbouring text) and comments vanish, so the parser never sees either.

import { PositionedError } from './errors.js';
import { unquoteChar, unquoteRaw, unquoteString } from './unquote.js';

export type TokenType =
  | 'text'
  | 'ldelim'
  | 'rdelim'
  | 'eof'
  | 'field'
  | 'variable'
  | 'ident'
  | 'keyword'
  | 'string'
  | 'number'
  | 'bool'
  | 'nil'
  | 'dot'
  | 'pipe'
  | 'lparen'
  | 'rparen'
  | 'comma'
  | 'declare'
  | 'assign'
  | 'argo';

export interface Token {
  type: TokenType;
  /** Raw text for most tokens; the decoded value for strings; the field name without its dot. */
  val: string;
  pos: number;
  /** Go decides `$x.a` (chain) vs `$x .a` (two operands) by adjacency, so the parser needs it. */
  spaceBefore: boolean;
  num?: number;
  /** Argo-style `steps.a.outputs.b` path, already mapped to the `.Steps.a.Outputs.b` keys. */
  segments?: string[];
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'break', 'continue', 'define', 'template', 'block']);

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);

// Hyphens are allowed inside names (never first or last) so that `.Steps.previous-step.Outputs`
// and the seed's `steps.previous-step.outputs.key` work; in Go such text is a syntax error, so
// accepting it cannot change the meaning of a valid Go template.
const NAME = /[A-Za-z0-9_]+(?:-+[A-Za-z0-9_]+)*/y;
const ARGO = /steps((?:\.[A-Za-z0-9_]+(?:-+[A-Za-z0-9_]+)*)+)/y;
const NUMBER =
  /[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?)/y;

function matchAt(re: RegExp, src: string, at: number): string | null {
  re.lastIndex = at;
  const m = re.exec(src);
  return m ? m[0] : null;
}

function parseNumber(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[+-]/, '').replace(/_/g, '');
  const lower = body.toLowerCase();
  if (lower.startsWith('0x')) return sign * parseInt(body.slice(2), 16);
  if (lower.startsWith('0o')) return sign * parseInt(body.slice(2), 8);
  if (lower.startsWith('0b')) return sign * parseInt(body.slice(2), 2);
  return sign * Number(body);
}

export function lex(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let trimNextText = false;

  while (i <= src.length) {
    const open = src.indexOf('{{', i);
    const textEnd = open === -1 ? src.length : open;
    let textStart = i;
    if (trimNextText) while (textStart < textEnd && isSpace(src[textStart])) textStart++;
    let textStop = textEnd;
    const leftTrim = open !== -1 && src[open + 2] === '-' && isSpace(src[open + 3]);
    if (leftTrim) while (textStop > textStart && isSpace(src[textStop - 1])) textStop--;
    if (textStop > textStart)
      tokens.push({ type: 'text', val: src.slice(textStart, textStop), pos: textStart, spaceBefore: false });
    if (open === -1) break;

    const inner = open + (leftTrim ? 4 : 2);
    if (src.startsWith('/*', inner)) {
      const end = src.indexOf('*/', inner + 2);
      if (end === -1) throw new PositionedError(open, 'unclosed comment');
      const after = end + 2;
      if (src.startsWith('}}', after)) {
        trimNextText = false;
        i = after + 2;
      } else if (isSpace(src[after]) && src.startsWith('-}}', after + 1)) {
        trimNextText = true;
        i = after + 4;
      } else {
        throw new PositionedError(open, 'comment ends before closing delimiter');
      }
      continue;
    }

    tokens.push({ type: 'ldelim', val: '{{', pos: open, spaceBefore: false });
    const res = lexAction(src, inner, open, tokens);
    trimNextText = res.trim;
    i = res.next;
  }
  tokens.push({ type: 'eof', val: '', pos: src.length, spaceBefore: false });
  return tokens;
}

function lexAction(src: string, start: number, open: number, out: Token[]): { next: number; trim: boolean } {
  let p = start;
  let parenDepth = 0;
  for (;;) {
    const before = p;
    while (p < src.length && isSpace(src[p])) p++;
    const spaceBefore = p > before;
    if (spaceBefore && src.startsWith('-}}', p)) {
      out.push({ type: 'rdelim', val: '}}', pos: p, spaceBefore });
      return { next: p + 3, trim: true };
    }
    if (src.startsWith('}}', p)) {
      if (parenDepth > 0) throw new PositionedError(p, 'unclosed left paren');
      out.push({ type: 'rdelim', val: '}}', pos: p, spaceBefore });
      return { next: p + 2, trim: false };
    }
    if (p >= src.length) throw new PositionedError(open, 'unclosed action: missing "}}"');

    const c = src[p] as string;
    const tok = (type: TokenType, val: string, extra: Partial<Token> = {}): void => {
      out.push({ type, val, pos: p, spaceBefore, ...extra });
    };

    if (c === '|') {
      tok('pipe', c);
      p++;
      continue;
    }
    if (c === '(') {
      tok('lparen', c);
      parenDepth++;
      p++;
      continue;
    }
    if (c === ')') {
      if (parenDepth === 0) throw new PositionedError(p, 'unexpected right paren');
      tok('rparen', c);
      parenDepth--;
      p++;
      continue;
    }
    if (c === ',') {
      tok('comma', c);
      p++;
      continue;
    }
    if (c === ':' && src[p + 1] === '=') {
      tok('declare', ':=');
      p += 2;
      continue;
    }
    if (c === '=') {
      tok('assign', c);
      p++;
      continue;
    }

    if (c === '"' || c === '`' || c === "'") {
      const { value, end } = c === '"' ? unquoteString(src, p) : c === '`' ? unquoteRaw(src, p) : unquoteChar(src, p);
      if (c === "'") tok('number', src.slice(p, end), { num: value.codePointAt(0) ?? 0 });
      else tok('string', value);
      p = end;
      continue;
    }

    if (c === '$') {
      const name = matchAt(NAME, src, p + 1) ?? '';
      tok('variable', `$${name}`);
      p += 1 + name.length;
      continue;
    }

    if (c === '.' && /[A-Za-z_]/.test(src[p + 1] ?? '')) {
      const name = matchAt(NAME, src, p + 1) as string;
      tok('field', name);
      p += 1 + name.length;
      continue;
    }

    const num = /[0-9+\-.]/.test(c) ? matchAt(NUMBER, src, p) : null;
    if (num && /[0-9]/.test(num)) {
      if (isAlnum(src[p + num.length]) || src[p + num.length] === '.') {
        throw new PositionedError(p, `bad number syntax: "${src.slice(p, p + num.length + 1)}"`);
      }
      const value = parseNumber(num);
      if (!Number.isFinite(value)) throw new PositionedError(p, `bad number syntax: "${num}"`);
      tok('number', num, { num: value });
      p += num.length;
      continue;
    }

    if (c === '.') {
      tok('dot', c);
      p++;
      continue;
    }

    if (/[A-Za-z_]/.test(c)) {
      const argo = matchAt(ARGO, src, p);
      if (argo && !isAlnum(src[p + argo.length])) {
        tok('argo', argo, { segments: argoSegments(argo) });
        p += argo.length;
        continue;
      }
      const word = matchAt(/[A-Za-z_][A-Za-z0-9_]*/y, src, p) as string;
      if (word === 'true' || word === 'false') tok('bool', word);
      else if (word === 'nil') tok('nil', word);
      else if (KEYWORDS.has(word)) tok('keyword', word);
      else tok('ident', word);
      p += word.length;
      continue;
    }

    if (c === '-' && src.startsWith('-}}', p)) {
      throw new PositionedError(p, 'a trim marker needs a space before it: write " -}}"');
    }
    throw new PositionedError(p, `unexpected ${JSON.stringify(c)} in action`);
  }
}

/** `steps.NAME.outputs.KEY...` → keys of `.Steps.NAME.Outputs.KEY...` (the seed's Argo-like form). */
function argoSegments(text: string): string[] {
  const parts = text.split('.');
  const out = ['Steps', ...parts.slice(1)];
  if (out[2] === 'outputs') out[2] = 'Outputs';
  return out;
}
