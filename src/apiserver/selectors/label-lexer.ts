/**
 * Tokenises a label selector as labels.Lexer does, so that error messages quote the same literals:
 * runs of operator characters take the longest known operator, everything else up to an operator
 * or whitespace is an identifier (or the keyword `in`/`notin`).
 */

export type Token = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

const LITERAL_TOKENS = new Map<string, Token>(
  [')', ',', '!', '==', '=', '>', 'in', '<', '!=', 'notin', '('].map((t) => [t, t as Token]),
);
const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),><'.includes(c) && c !== '';

export interface Item {
  tok: Token;
  lit: string;
}

export function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++]! : '');
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      let buf = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buf += c;
        const tok = LITERAL_TOKENS.get(buf);
        if (tok) last = { tok, lit: buf };
        else if (last) {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buf += c;
      }
      items.push({ tok: LITERAL_TOKENS.get(buf) ?? 'id', lit: buf });
    }
  }
}
