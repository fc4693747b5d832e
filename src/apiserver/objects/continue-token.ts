import { errors } from '../http/status.js';

/**
 * Continue tokens in kube-apiserver's own format (k8s.io/apiserver/pkg/storage/continue.go):
 * base64url without padding of `{"v":"meta.k8s.io/v1","rv":N,"start":"<key after the prefix>\u0000"}`.
 * A token is client input, so it is decoded with the checks and texts of DecodeContinue; its
 * revision is checked against the store by the caller. `seen` (the items earlier pages answered,
 * for remainingItemCount) is an extra field Go's decoder ignores.
 */
export interface ContinueToken {
  /** The list's revision; -1 continues at the latest one (what a 410 for a compacted token offers). */
  rv: number;
  /** The first key (after the collection prefix) the next page may start at. */
  start: string;
  seen: number;
}

const VERSION = 'meta.k8s.io/v1';
const INVALID = 'continue key is not valid';

export function encodeContinue(rv: number, lastKey: string, seen: number): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv, start: `${lastKey}\u0000`, seen })).toString('base64url');
}

/** A token that continues `token` at the latest revision (handleCompactedErrorForPaging). */
export function latestContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv: -1, start: token.start, seen: token.seen })).toString(
    'base64url',
  );
}

/** DecodeContinue, answering its errors as kube's 400 `invalid continue token: …`. */
export function decodeContinue(token: string): ContinueToken {
  const fail = (why: string): never => {
    throw errors.badRequest(`invalid continue token: ${why}`);
  };
  const bad = base64Error(token);
  if (bad !== undefined) return fail(`${INVALID}: illegal base64 data at input byte ${bad}`);
  const data = Buffer.from(token, 'base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    return fail(`${INVALID}: ${goSyntaxError(data)}`);
  }
  const typeError = fieldTypeError(parsed);
  if (typeError) return fail(`${INVALID}: ${typeError}`);
  const fields = parsed as { v?: string | null; rv?: number | null; start?: string | null; seen?: unknown };
  const version = fields.v ?? '';
  if (version !== VERSION) return fail(`${INVALID}: server does not recognize this encoded version ${version}`);
  const rv = fields.rv ?? 0;
  if (rv === 0) return fail(`${INVALID}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
  const start = fields.start ?? '';
  if (!start) return fail(`${INVALID}: encoded start key empty (version meta.k8s.io/v1)`);
  // A start key that path.Clean would change could range outside the collection (path traversal).
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(key) !== key) return fail(`${INVALID}: ${start}`);
  const seen = typeof fields.seen === 'number' && fields.seen >= 0 ? fields.seen : 0;
  return { rv, start: key.slice(1), seen };
}

/** base64.RawURLEncoding's CorruptInputError offset, or undefined when the text decodes. */
function base64Error(s: string): number | undefined {
  const i = s.search(/[^A-Za-z0-9_-]/);
  if (i >= 0) return i;
  return s.length % 4 === 1 ? s.length - 1 : undefined;
}

const VALUE_START = /[\s{["\-0-9tfn]/;

/** encoding/json's SyntaxError text for the common cases (not a value at all, or cut short). */
function goSyntaxError(data: Buffer): string {
  const text = data.toString('latin1');
  const first = text.trimStart()[0];
  if (first === undefined) return 'unexpected end of JSON input';
  if (!VALUE_START.test(first)) return `invalid character ${quoteChar(first)} looking for beginning of value`;
  return 'unexpected end of JSON input';
}

/** encoding/json's quoteChar: the byte as a Go rune literal. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const code = c.charCodeAt(0);
  const printable = code >= 0x20 && code < 0x7f;
  if (printable) return `'${c === '\\' ? '\\\\' : c}'`;
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
  if (named[code]) return `'${named[code]}'`;
  return code < 0x80 || code === 0x7f ? `'\\x${hex(code, 2)}'` : `'\\u${hex(code, 4)}'`;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** The UnmarshalTypeError json.Unmarshal reports first for a token of the wrong shape. */
function fieldTypeError(v: unknown): string | undefined {
  if (v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    return `json: cannot unmarshal ${jsonKind(v)} into Go value of type storage.continueToken`;
  const fields: Array<[name: string, want: 'string' | 'int64']> = [
    ['v', 'string'],
    ['rv', 'int64'],
    ['start', 'string'],
  ];
  for (const [name, want] of fields) {
    const value = (v as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    const ok = want === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isSafeInteger(value);
    if (ok) continue;
    const what = typeof value === 'number' ? `number ${String(value)}` : jsonKind(value);
    return `json: cannot unmarshal ${what} into Go struct field continueToken.${name} of type ${want}`;
  }
  return undefined;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Go's path.Clean. */
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined || '.';
}
