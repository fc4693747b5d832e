// Collections and serialisation: list/dict/index/len/keys, JSON and YAML in both directions.

import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { strslice, strval, text } from './convert.js';
import { def, type CallContext, type FuncDef } from './func-types.js';
import { formatValue, isMap, isNil, ownValue, sortedKeys, typeName } from './values.js';
import { FunctionCallError } from './errors.js';

/** Go's json.Marshal: sorted map keys and HTML-safe escapes (<, >, & as \u003c...), as sprig's toJson. */
export function goJson(v: unknown): string {
  if (isNil(v)) return 'null';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new FunctionCallError(`json: unsupported value: ${formatValue(v)}`);
    return JSON.stringify(v);
  }
  if (typeof v === 'string') {
    return JSON.stringify(v).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (isMap(v)) {
    return `{${sortedKeys(v)
      .filter((k) => v[k] !== undefined)
      .map((k) => `${goJson(k)}:${goJson(v[k])}`)
      .join(',')}}`;
  }
  throw new FunctionCallError(`json: unsupported type ${typeof v}`);
}

/**
 * Helm's toYaml: sorted keys, no trailing newline. YAML 1.1 quoting makes strings such as "yes",
 * "on" or "0777" come out quoted, so Kubernetes' own (1.1-flavoured) parser reads them as strings.
 */
const HELM_STYLE = { version: '1.1', sortMapEntries: true, lineWidth: 0 } as const;

/**
 * Under renderManifest every string is a one-line double-quoted scalar: the extent of a block or
 * multi-line scalar depends on indentation, which a template author can get wrong (toYaml without
 * nindent), while a one-line quoted scalar always ends at its closing quote.
 */
const MANIFEST_STYLE = {
  ...HELM_STYLE,
  blockQuote: false,
  defaultStringType: 'QUOTE_DOUBLE',
  defaultKeyType: 'QUOTE_DOUBLE',
  doubleQuotedAsJSON: true,
  doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY,
} as const;

export function toYaml(v: unknown, ctx: CallContext): string {
  const out = stringifyYaml(v === undefined ? null : v, ctx.manifest ? MANIFEST_STYLE : HELM_STYLE);
  return out.replace(/\n$/, '');
}

function index(item: unknown, keys: unknown[]): unknown {
  let cur = item;
  for (const k of keys) {
    if (isNil(cur)) throw new FunctionCallError('index of untyped nil');
    if (Array.isArray(cur) || typeof cur === 'string') {
      if (typeof k !== 'number' || !Number.isInteger(k))
        throw new FunctionCallError(`cannot index ${typeName(cur)} with ${typeName(k)}`);
      const len = typeof cur === 'string' ? Buffer.byteLength(cur) : cur.length;
      if (k < 0 || k >= len) throw new FunctionCallError(`index out of range: ${k}`);
      cur = typeof cur === 'string' ? Buffer.from(cur, 'utf8')[k] : cur[k];
    } else if (isMap(cur)) {
      // A missing map key is the zero value, not an error, exactly as Go's index builtin.
      cur = ownValue(cur, strval(k)).value ?? null;
    } else {
      throw new FunctionCallError(`can't index item of type ${typeName(cur)}`);
    }
  }
  return cur;
}

function slice(item: unknown, bounds: unknown[]): unknown {
  if (!Array.isArray(item) && typeof item !== 'string')
    throw new FunctionCallError(`can't slice item of type ${typeName(item)}`);
  const len = item.length;
  const [lo = 0, hi = len] = bounds;
  if (typeof lo !== 'number' || typeof hi !== 'number' || lo < 0 || hi > len || lo > hi) {
    throw new FunctionCallError(`slice bounds out of range [${formatValue(lo)}:${formatValue(hi)}] with length ${len}`);
  }
  return item.slice(lo, hi);
}

function len(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (Array.isArray(v)) return v.length;
  if (isMap(v)) return Object.keys(v).length;
  throw new FunctionCallError(`len of ${isNil(v) ? 'nil pointer' : `type ${typeName(v)}`}`);
}

function dict(args: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 2) {
    Object.defineProperty(out, strval(args[i]), {
      value: i + 1 < args.length ? args[i + 1] : '',
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function goSplit(sep: string, s: string): string[] {
  return sep === '' ? Array.from(s) : s.split(sep);
}

function hasKey(m: unknown, key: unknown): boolean {
  return isMap(m) && ownValue(m, strval(key)).found;
}

export const dataFunctions: Record<string, FuncDef> = {
  list: def((args) => [...args], 0, Infinity),
  dict: def(dict, 0, Infinity),
  hasKey: def(([m, k]) => hasKey(m, k), 2, 2, { acceptsMissing: true }),
  keys: def(
    (maps) => maps.flatMap((m) => (isMap(m) ? Object.keys(m) : [])).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    1,
    Infinity,
  ),
  index: def(([item, ...keys]) => index(item, keys), 1, Infinity),
  slice: def(([item, ...bounds]) => slice(item, bounds), 1, 3),
  len: def(([v]) => len(v), 1),
  join: def(([sep, list]) => strslice(list).join(text(sep)), 2),
  split: def(([sep, s]) => Object.fromEntries(goSplit(text(sep), text(s)).map((p, i) => [`_${i}`, p])), 2),
  splitList: def(([sep, s]) => goSplit(text(sep), text(s)), 2),
  toJson: def(([v]) => goJson(v), 1),
  fromJson: def(([s]) => JSON.parse(text(s)) as unknown, 1),
  toYaml: def(([v], ctx) => toYaml(v, ctx), 1),
  fromYaml: def(([s]) => parseYaml(text(s)) as unknown, 1),
};
