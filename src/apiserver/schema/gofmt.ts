/**
 * Renderings that match Go's fmt, strconv and encoding/json. kube-apiserver builds its validation
 * messages with them, and clients and tests compare those messages verbatim.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NAMED_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** strconv.Quote (fmt's %q for strings). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0xd800 && cp <= 0xdfff)
      out += '\\ufffd'; // lone surrogate: Go sees invalid UTF-8
    else if (PRINTABLE.test(ch)) out += ch;
    else if (NAMED_ESCAPES[ch]) out += NAMED_ESCAPES[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** fmt's %v for a float64: shortest digits, but exponent form from 1e6 up and below 1e-4 (JavaScript waits until 1e21). */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
  }
  return String(n);
}

/**
 * A JSON number as the apiserver's decoder sees it: integral values become int64 (printed in full),
 * the rest float64. JSON `10.0` is indistinguishable from `10` here, so it counts as an integer.
 */
export function isJsonInteger(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

export function goNumber(n: number): string {
  return isJsonInteger(n) ? BigInt(n).toString() : goFloat(n);
}

/** encoding/json.Marshal of a decoded JSON value: map keys sorted, HTML characters escaped. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number')
    return Number.isFinite(v) ? (isJsonInteger(v) ? BigInt(v).toString() : JSON.stringify(v)) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (typeof v === 'object') {
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort(compareGo);
    return `{${keys.map((k) => `${goJsonString(k)}:${goJson(obj[k])}`).join(',')}}`;
  }
  return 'null';
}

function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go compares strings bytewise (UTF-8); for the BMP outside surrogates that equals code-point order. */
export function compareGo(a: string, b: string): number {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ab, bb);
}

/** How field.Error renders its BadValue: %v for scalars, %q for strings, JSON for everything else. */
export function goValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  return goJson(v);
}
