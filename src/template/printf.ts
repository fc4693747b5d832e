// Go's fmt.Sprintf for the verbs Flow authors use (%v %s %q %d %f %e %g %t %x %X %o %b %c %U),
// with flags, width and precision. Mistakes render inline the way Go does (`%!d(string=x)`,
// `%!s(MISSING)`) instead of throwing, so output stays comparable with Helm's.
// One deliberate leniency: %s accepts any value (Go would print `%!s(int=3)`).

import { formatNumber, formatValue, isNil, typeName } from './values.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** strconv.Quote: Go-escaped, double-quoted. The result is also a valid YAML/JSON-ish double-quoted scalar. */
export function goQuote(s: string, quote = '"'): string {
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0xd800 && cp < 0xe000) out += '\\ufffd';
    else if (PRINTABLE.test(ch)) out += ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return out + quote;
}

interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  zero: boolean;
  sharp: boolean;
  width: number | null;
  prec: number | null;
  verb: string;
}

function bad(spec: Spec, v: unknown): string {
  return isNil(v) ? `%!${spec.verb}(<nil>)` : `%!${spec.verb}(${typeName(v)}=${formatValue(v)})`;
}

function signed(n: number, body: string, spec: Spec): string {
  if (n < 0 || Object.is(n, -0)) return body.startsWith('-') ? body : `-${body}`;
  return (spec.plus ? '+' : spec.space ? ' ' : '') + body;
}

function goExponent(s: string): string {
  return s.replace(/e([+-])(\d)$/, (_m, sign: string, d: string) => `e${sign}0${d}`);
}

function formatG(n: number, prec: number | null): string {
  if (prec === null) return formatNumber(n);
  const p = Math.max(prec, 1);
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  const strip = (s: string): string => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
  if (exp < -4 || exp >= p) {
    const [mant, e] = n.toExponential(p - 1).split('e') as [string, string];
    return goExponent(`${strip(mant)}e${e}`);
  }
  return strip(n.toFixed(Math.max(p - 1 - exp, 0)));
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

function formatOne(spec: Spec, v: unknown): { text: string; numeric: boolean } {
  const num = (text: string): { text: string; numeric: boolean } => ({ text, numeric: true });
  switch (spec.verb) {
    case 'v':
    case 's': {
      if (typeof v === 'number') return num(signed(v, formatNumber(Math.abs(v)), spec));
      const s = formatValue(v);
      return { text: spec.prec !== null ? [...s].slice(0, spec.prec).join('') : s, numeric: false };
    }
    case 'q':
      if (typeof v === 'string')
        return { text: spec.sharp && !v.includes('`') ? `\`${v}\`` : goQuote(v), numeric: false };
      if (isInt(v)) return { text: goQuote(String.fromCodePoint(v), "'"), numeric: false };
      return { text: goQuote(formatValue(v)), numeric: false };
    case 'd':
      return isInt(v) ? num(signed(v, String(Math.abs(v)), spec)) : { text: bad(spec, v), numeric: false };
    case 'f':
    case 'F':
      return typeof v === 'number'
        ? num(signed(v, Math.abs(v).toFixed(spec.prec ?? 6), spec))
        : { text: bad(spec, v), numeric: false };
    case 'e':
    case 'E': {
      if (typeof v !== 'number') return { text: bad(spec, v), numeric: false };
      const s = goExponent(Math.abs(v).toExponential(spec.prec ?? 6));
      return num(signed(v, spec.verb === 'E' ? s.toUpperCase() : s, spec));
    }
    case 'g':
    case 'G': {
      if (typeof v !== 'number') return { text: bad(spec, v), numeric: false };
      const s = formatG(Math.abs(v), spec.prec);
      return num(signed(v, spec.verb === 'G' ? s.toUpperCase() : s, spec));
    }
    case 't':
      return typeof v === 'boolean' ? { text: String(v), numeric: false } : { text: bad(spec, v), numeric: false };
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
      const radix = spec.verb === 'o' ? 8 : spec.verb === 'b' ? 2 : 16;
      let s: string;
      if (isInt(v)) s = Math.abs(v).toString(radix);
      else if (typeof v === 'string' && radix === 16) s = Buffer.from(v, 'utf8').toString('hex');
      else return { text: bad(spec, v), numeric: false };
      if (spec.sharp && radix !== 2) s = (radix === 8 ? '0' : '0x') + s;
      if (spec.verb === 'X') s = s.toUpperCase();
      return typeof v === 'number' ? num(signed(v, s, spec)) : { text: s, numeric: false };
    }
    case 'c':
      return isInt(v) && v >= 0 && v <= 0x10ffff
        ? { text: String.fromCodePoint(v), numeric: false }
        : { text: bad(spec, v), numeric: false };
    case 'U':
      return isInt(v) && v >= 0
        ? { text: `U+${v.toString(16).toUpperCase().padStart(4, '0')}`, numeric: false }
        : { text: bad(spec, v), numeric: false };
    default:
      return { text: bad(spec, v), numeric: false };
  }
}

function pad(text: string, numeric: boolean, spec: Spec): string {
  const len = [...text].length;
  if (spec.width === null || len >= spec.width) return text;
  const fill = spec.width - len;
  if (spec.minus) return text + ' '.repeat(fill);
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.exec(text)?.[0] ?? '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

export function sprintf(format: string, args: readonly unknown[]): string {
  let out = '';
  let argi = 0;
  let i = 0;
  const takeInt = (): number | null => {
    const a = args[argi++];
    return isInt(a) ? a : null;
  };
  while (i < format.length) {
    const c = format[i] as string;
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    i++;
    const spec: Spec = {
      minus: false,
      plus: false,
      space: false,
      zero: false,
      sharp: false,
      width: null,
      prec: null,
      verb: '',
    };
    for (; i < format.length; i++) {
      const f = format[i];
      if (f === '-') spec.minus = true;
      else if (f === '+') spec.plus = true;
      else if (f === ' ') spec.space = true;
      else if (f === '0') spec.zero = true;
      else if (f === '#') spec.sharp = true;
      else break;
    }
    if (format[i] === '*') {
      spec.width = takeInt();
      i++;
    } else {
      const m = /^\d+/.exec(format.slice(i));
      if (m) {
        spec.width = Number(m[0]);
        i += m[0].length;
      }
    }
    if (format[i] === '.') {
      i++;
      if (format[i] === '*') {
        spec.prec = takeInt();
        i++;
      } else {
        const m = /^\d*/.exec(format.slice(i)) as RegExpExecArray;
        spec.prec = Number(m[0] || '0');
        i += m[0].length;
      }
    }
    const verb = format.codePointAt(i);
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    spec.verb = String.fromCodePoint(verb);
    i += spec.verb.length;
    if (spec.verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${spec.verb}(MISSING)`;
      continue;
    }
    const v = args[argi++];
    const { text, numeric } = formatOne(spec, isNil(v) ? null : v);
    out += pad(text, numeric, spec);
  }
  if (argi < args.length) {
    out += `%!(EXTRA ${args
      .slice(argi)
      .map((a) => `${typeName(a)}=${formatValue(a)}`)
      .join(', ')})`;
  }
  return out;
}
