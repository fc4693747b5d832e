// What each template function returns, and which arguments it cannot take, as far as the checker
// can tell from the arguments' types. Functions not listed return "type unknown".

import { arrayOf, BOOLEAN, INTEGER, join, NUMBER, record, STRING, UNKNOWN, type Ty } from './types.js';

export type ArgRule = 'number' | 'text';

export interface Signature {
  result: (args: readonly Ty[]) => Ty;
  /** What every argument must be: a number (not a string, map or list), or printable text (not a map or list). */
  args?: ArgRule;
}

const is = (ty: Ty) => (): Ty => ty;
const last = (args: readonly Ty[]): Ty => args[args.length - 1] ?? UNKNOWN;
const joinAll = (args: readonly Ty[]): Ty => (args.length === 0 ? UNKNOWN : args.reduce(join));
const OPEN_MAP = record('a dict', {}, UNKNOWN);

const INT_MATH = ['add', 'add1', 'sub', 'mul', 'div', 'mod', 'max', 'min'];
const FLOAT_MATH = ['addf', 'subf', 'mulf', 'divf'];
/** Functions that take text and give text back: both lists below hold them. */
const TEXT_TO_TEXT = [
  'upper',
  'lower',
  'title',
  'trim',
  'trimPrefix',
  'trimSuffix',
  'b64enc',
  'b64dec',
  'quote',
  'squote',
  'replace',
];
const TEXT_IN = [...TEXT_TO_TEXT, 'hasPrefix', 'hasSuffix', 'contains'];
const STRING_OUT = [
  ...TEXT_TO_TEXT,
  'printf',
  'print',
  'println',
  'toString',
  'indent',
  'nindent',
  'join',
  'toJson',
  'toYaml',
];
const BOOL_OUT = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'not', 'empty', 'hasKey', 'contains', 'hasPrefix', 'hasSuffix'];

export const SIGNATURES: ReadonlyMap<string, Signature> = new Map<string, Signature>([
  ...INT_MATH.map((n): [string, Signature] => [n, { result: is(INTEGER), args: 'number' }]),
  ...FLOAT_MATH.map((n): [string, Signature] => [n, { result: is(NUMBER), args: 'number' }]),
  ...STRING_OUT.map((n): [string, Signature] => [
    n,
    { result: is(STRING), ...(TEXT_IN.includes(n) ? { args: 'text' as const } : {}) },
  ]),
  ...BOOL_OUT.map((n): [string, Signature] => [
    n,
    { result: is(BOOLEAN), ...(TEXT_IN.includes(n) ? { args: 'text' as const } : {}) },
  ]),
  ['int', { result: is(INTEGER) }],
  ['int64', { result: is(INTEGER) }],
  ['atoi', { result: is(INTEGER) }],
  ['len', { result: is(INTEGER) }],
  ['float64', { result: is(NUMBER) }],
  ['and', { result: joinAll }],
  ['or', { result: joinAll }],
  ['coalesce', { result: joinAll }],
  ['ternary', { result: (a) => join(a[0] ?? UNKNOWN, a[1] ?? UNKNOWN) }],
  // `x | default d` is x when set: its type, unless x's is unknown.
  [
    'default',
    {
      result: (a) =>
        a.length > 1 && last(a).kind !== 'unknown' && last(a).kind !== 'null'
          ? last(a)
          : join(a[0] ?? UNKNOWN, last(a)),
    },
  ],
  ['required', { result: last }],
  ['list', { result: () => arrayOf(UNKNOWN) }],
  ['dict', { result: () => OPEN_MAP }],
  ['keys', { result: () => arrayOf(STRING) }],
  ['splitList', { result: () => arrayOf(STRING) }],
  ['split', { result: () => record('a split', {}, STRING) }],
  ['slice', { result: (a) => a[0] ?? UNKNOWN }],
]);
