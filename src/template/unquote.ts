// Go string, raw string and rune literals. Go strings are byte strings, so `\xc3\xa9` is "é":
// escapes that produce bytes are collected and decoded as UTF-8 together with the plain text.

import { PositionedError } from './errors.js';

const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };
const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();

interface Decoded {
  value: string;
  end: number;
}

/** Decodes the literal starting at `start` (a `"` or `'`), returning the value and the offset after it. */
function decodeQuoted(src: string, start: number, quote: '"' | "'"): Decoded {
  const bytes: number[] = [];
  const pushText = (s: string): void => {
    for (const b of encoder.encode(s)) bytes.push(b);
  };
  let p = start + 1;
  for (;;) {
    const c = src[p];
    if (c === undefined || c === '\n') {
      throw new PositionedError(
        start,
        quote === '"' ? 'unterminated quoted string' : 'unterminated character constant',
      );
    }
    if (c === quote) return { value: decoder.decode(new Uint8Array(bytes)), end: p + 1 };
    if (c !== '\\') {
      const cp = src.codePointAt(p) as number;
      pushText(String.fromCodePoint(cp));
      p += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = src[p + 1] ?? '';
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      bytes.push(simple);
      p += 2;
    } else if (e === quote) {
      bytes.push(e.charCodeAt(0));
      p += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = src.slice(p + 2, p + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new PositionedError(p, `invalid escape \\${e}${hex}`);
      const n = parseInt(hex, 16);
      if (e === 'x') bytes.push(n);
      else if (n > 0x10ffff || (n >= 0xd800 && n < 0xe000)) throw new PositionedError(p, `invalid escape \\${e}${hex}`);
      else pushText(String.fromCodePoint(n));
      p += 2 + len;
    } else if (/[0-7]/.test(e)) {
      const oct = src.slice(p + 1, p + 4);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) throw new PositionedError(p, `invalid escape \\${oct}`);
      bytes.push(parseInt(oct, 8));
      p += 4;
    } else {
      throw new PositionedError(p, `unknown escape sequence \\${e}`);
    }
  }
}

export function unquoteString(src: string, start: number): Decoded {
  return decodeQuoted(src, start, '"');
}

export function unquoteChar(src: string, start: number): Decoded {
  const d = decodeQuoted(src, start, "'");
  if ([...d.value].length !== 1) throw new PositionedError(start, 'character constant must hold exactly one character');
  return d;
}

export function unquoteRaw(src: string, start: number): Decoded {
  const end = src.indexOf('`', start + 1);
  if (end === -1) throw new PositionedError(start, 'unterminated raw quoted string');
  // Go drops carriage returns from raw strings so a template means the same with CRLF line ends.
  return { value: src.slice(start + 1, end).replace(/\r/g, ''), end: end + 1 };
}
