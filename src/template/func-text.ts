// String functions. Argument order follows sprig, where the string operated on comes LAST so
// that it can arrive through a pipeline: `.x | replace "a" "b"`, `.x | trimPrefix "v"`.

import { strval, text } from './convert.js';
import { FunctionCallError, FunctionError } from './errors.js';
import { def, type FuncDef } from './func-types.js';
import { goQuote, sprintf } from './printf.js';
import { formatValue, isNil } from './values.js';

/** strings.Title: upper-case the first letter after anything that is not a letter, digit or `_`. */
function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const ch of s) {
    const separator = /[\p{L}\p{N}_]/u.test(prev) ? false : /\p{ASCII}/u.test(prev) || /\s/u.test(prev);
    out += separator ? ch.toUpperCase() : ch;
    prev = ch;
  }
  return out;
}

function indent(n: unknown, s: unknown): string {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new FunctionCallError(`indent width must be a non-negative integer, got ${formatValue(n)}`);
  const pad = ' '.repeat(n);
  return pad + text(s).replace(/\n/g, `\n${pad}`);
}

function b64dec(v: unknown): string {
  const s = text(v);
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s))
    throw new FunctionError(`b64dec: illegal base64 data in ${goQuote(s)}`);
  return Buffer.from(s, 'base64').toString('utf8');
}

/** fmt.Sprint: a space goes between operands only when neither side is a string. */
function sprint(args: unknown[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(a);
  });
  return out;
}

export const textFunctions: Record<string, FuncDef> = {
  quote: def(
    (args) =>
      args
        .filter((a) => !isNil(a))
        .map((a) => goQuote(strval(a)))
        .join(' '),
    0,
    Infinity,
  ),
  squote: def(
    (args) =>
      args
        .filter((a) => !isNil(a))
        .map((a) => `'${strval(a)}'`)
        .join(' '),
    0,
    Infinity,
  ),
  upper: def(([s]) => text(s).toUpperCase(), 1),
  lower: def(([s]) => text(s).toLowerCase(), 1),
  title: def(([s]) => title(text(s)), 1),
  trim: def(([s]) => text(s).trim(), 1),
  trimPrefix: def(([p, s]) => {
    const str = text(s);
    const pre = text(p);
    return pre !== '' && str.startsWith(pre) ? str.slice(pre.length) : str;
  }, 2),
  trimSuffix: def(([x, s]) => {
    const str = text(s);
    const suf = text(x);
    return suf !== '' && str.endsWith(suf) ? str.slice(0, str.length - suf.length) : str;
  }, 2),
  replace: def(([from, to, s]) => text(s).replaceAll(text(from), () => text(to)), 3),
  contains: def(([sub, s]) => text(s).includes(text(sub)), 2),
  hasPrefix: def(([p, s]) => text(s).startsWith(text(p)), 2),
  hasSuffix: def(([x, s]) => text(s).endsWith(text(x)), 2),
  indent: def(([n, s]) => indent(n, s), 2),
  nindent: def(([n, s]) => `\n${indent(n, s)}`, 2),
  b64enc: def(([s]) => Buffer.from(text(s), 'utf8').toString('base64'), 1),
  b64dec: def(([s]) => b64dec(s), 1),
  printf: def(([f, ...rest]) => sprintf(text(f), rest), 1, Infinity),
  print: def((args) => sprint(args), 0, Infinity),
  println: def((args) => `${args.map((a) => formatValue(a)).join(' ')}\n`, 0, Infinity),
  toString: def(([v]) => strval(v), 1),
};
