import type { Writer } from 'protobufjs';
import type { JsonValue } from '../schema/types.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { QUANTITY_FORMAT, QUANTITY_FORMAT_ERROR } from '../schema/quantity-format.js';
import { timeOf, timestampOf } from './meta.js';
import { boolOf, bytesOf, int64Of, messageOf, stringOf } from './reader.js';
import type { ValueType } from './schema.js';

/**
 * The leaf types of the protobuf messages: proto scalars, and the apimachinery messages whose Go types marshal
 * to JSON as scalars (IntOrString, Quantity, Time, MicroTime, Duration, RawExtension, FieldsV1).
 */

const LEN = 2;
const tag = (number: number, wire: number): number => ((number << 3) | wire) >>> 0;

function expectType(ok: boolean, at: string, what: string, v: JsonValue): void {
  if (!ok) throw new ProtobufEncodeError(`${at || what}: expected ${what}, got ${JSON.stringify(v)}`);
}

export const string: ValueType = {
  label: 'string',
  decode: (f, at) => stringOf(f, at || 'string'),
  zero: '',
  isEmpty: (v) => v === '',
  struct: false,
  encode(w, n, v, at) {
    expectType(typeof v === 'string', at, 'a string', v);
    w.uint32(tag(n, LEN)).string(String(v));
  },
};

/** int32 and int64 (both two's complement varints; JSON numbers, exact up to 2^53). */
export const int: ValueType = {
  label: 'int',
  decode: (f, at) => int64Of(f, at || 'int'),
  zero: 0,
  isEmpty: (v) => v === 0,
  struct: false,
  packable: true,
  wire: 0,
  encode(w, n, v, at) {
    expectType(typeof v === 'number' && Number.isInteger(v), at, 'an integer', v);
    w.uint32(tag(n, 0)).int64(Number(v));
  },
};

export const bool: ValueType = {
  label: 'bool',
  decode: (f, at) => boolOf(f, at || 'bool'),
  zero: false,
  isEmpty: (v) => v === false,
  struct: false,
  packable: true,
  wire: 0,
  encode(w, n, v, at) {
    expectType(typeof v === 'boolean', at, 'a boolean', v);
    w.uint32(tag(n, 0)).bool(v === true);
  },
};

/** double (wire type 1), as in resource.k8s.io and autoscaling. */
export const double: ValueType = {
  label: 'double',
  decode(f, at) {
    if (f.value.wire !== 1)
      throw new ProtobufDecodeError(
        `invalid protobuf in ${at}: field ${f.number} has wire type ${f.value.wire}, expected 1`,
      );
    return f.value.bytes.readDoubleLE(0);
  },
  zero: 0,
  isEmpty: (v) => v === 0,
  struct: false,
  wire: 1,
  encode(w, n, v, at) {
    expectType(typeof v === 'number', at, 'a number', v);
    w.uint32(tag(n, 1)).double(Number(v));
  },
};

/** Go's []byte: base64 in JSON, as encoding/json writes it; null when nil. */
export const bytes: ValueType = {
  label: 'bytes',
  decode: (f, at) => bytesOf(f, at || 'bytes').toString('base64'),
  zero: null,
  isEmpty: (v) => v === '' || v === null,
  struct: false,
  encode(w, n, v, at) {
    expectType(typeof v === 'string', at, 'a base64 string', v);
    w.uint32(tag(n, LEN)).bytes(Buffer.from(String(v), 'base64'));
  },
};

/** intstr.IntOrString {1 type, 2 intVal, 3 strVal}: a JSON number or string; a struct, so never omitted. */
export const intOrString: ValueType = {
  label: 'IntOrString',
  decode(f) {
    let type = 0;
    let intVal = 0;
    let strVal = '';
    for (const e of messageOf(f, 'IntOrString')) {
      if (e.number === 1) type = int64Of(e, 'IntOrString');
      else if (e.number === 2) intVal = int64Of(e, 'IntOrString');
      else if (e.number === 3) strVal = stringOf(e, 'IntOrString');
    }
    return type === 1 ? strVal : intVal;
  },
  zero: 0,
  isEmpty: () => false,
  struct: true,
  encode(w, n, v, at) {
    expectType(typeof v === 'string' || typeof v === 'number', at, 'an integer or a string', v);
    const isString = typeof v === 'string';
    w.uint32(tag(n, LEN)).fork();
    w.uint32(tag(1, 0)).int64(isString ? 1 : 0);
    w.uint32(tag(2, 0)).int32(isString ? 0 : Number(v));
    w.uint32(tag(3, LEN)).string(isString ? v : '');
    w.ldelim();
  },
};

/** resource.Quantity {1 string}: gogo writes the canonical form, which is also what JSON carries. */
export const quantity: ValueType = {
  label: 'Quantity',
  decode(f) {
    let s: string | undefined;
    for (const e of messageOf(f, 'Quantity')) {
      if (e.number === 1) s = stringOf(e, 'Quantity');
    }
    if (s === undefined) return '0';
    // Unmarshal parses the text as it is (ParseQuantity; only UnmarshalJSON trims it first), so a
    // body with a bad quantity is refused at decoding.
    if (!QUANTITY_FORMAT.test(s))
      throw new ProtobufDecodeError(`Quantity: ${QUANTITY_FORMAT_ERROR}`, QUANTITY_FORMAT_ERROR);
    return s;
  },
  zero: '0',
  isEmpty: () => false,
  struct: true,
  encode(w, n, v, at) {
    expectType(typeof v === 'string' || typeof v === 'number', at, 'a quantity', v);
    w.uint32(tag(n, LEN)).fork().uint32(tag(1, LEN)).string(String(v)).ldelim();
  },
};

/** {1 seconds, 2 nanos} of an RFC 3339 text, as metav1.Time and MicroTime carry it. */
function writeTimestamp(w: Writer, n: number, v: JsonValue, at: string, label: string): void {
  expectType(typeof v === 'string', at, `an RFC 3339 time for ${label}`, v);
  const text = String(v);
  const ms = Date.parse(text);
  expectType(!Number.isNaN(ms), at, `an RFC 3339 time for ${label}`, v);
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  const seconds = Math.floor(ms / 1000);
  const nanos = fraction ? Number(fraction.slice(0, 9).padEnd(9, '0')) : 0;
  w.uint32(tag(n, LEN)).fork().uint32(tag(1, 0)).int64(seconds).uint32(tag(2, 0)).int32(nanos).ldelim();
}

/**
 * metav1.Time: RFC 3339, or left out when zero. Go ≤ 1.33 clients write a zero Time as null, 1.34+
 * leave it out (omitzero); the wire cannot tell them apart, and null and absent mean the same.
 */
export const time: ValueType = {
  label: 'Time',
  decode: (f, at) => timeOf(f, at || 'Time'),
  zero: undefined,
  isEmpty: () => false,
  struct: true,
  encode: (w, n, v, at) => writeTimestamp(w, n, v, at, 'Time'),
};

/** metav1.MicroTime (Events' eventTime, Leases' renewTime): RFC 3339 with six fractional digits. */
export const microTime: ValueType = {
  label: 'MicroTime',
  decode: (f, at) => timestampOf(f, 6, at || 'MicroTime'),
  zero: undefined,
  isEmpty: () => false,
  struct: true,
  encode: (w, n, v, at) => writeTimestamp(w, n, v, at, 'MicroTime'),
};

const DURATION_UNITS: Array<[string, number]> = [
  ['h', 3600e9],
  ['m', 60e9],
  ['s', 1e9],
  ['ms', 1e6],
  ['us', 1e3],
  ['µs', 1e3],
  ['ns', 1],
];

/** Go's time.Duration.String(): 1h2m3.5s, 1.5ms, 0s. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  let rest = Math.abs(ns);
  if (rest < 1e9) {
    const [unit, size] = rest < 1e3 ? ['ns', 1] : rest < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${sign}${trimFraction(rest / size)}${unit}`;
  }
  const h = Math.floor(rest / 3600e9);
  rest -= h * 3600e9;
  const m = Math.floor(rest / 60e9);
  rest -= m * 60e9;
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${trimFraction(rest / 1e9)}s`;
}

const trimFraction = (x: number): string => String(Number(x.toFixed(9)));

/** Go's time.ParseDuration, for the forms kube's clients write. */
export function parseGoDuration(text: string): number | undefined {
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:h|m|s|ms|us|µs|ns))+$/.exec(text);
  if (!m && text !== '0') return undefined;
  let total = 0;
  for (const [, num, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ms|us|µs|ns|h|m|s)/g)) {
    total += Number(num) * (DURATION_UNITS.find(([u]) => u === unit)?.[1] ?? 0);
  }
  return text.startsWith('-') ? -total : total;
}

/** metav1.Duration {1 duration (int64 nanoseconds)}: Go's duration text in JSON. */
export const duration: ValueType = {
  label: 'Duration',
  decode(f, at) {
    let ns = 0;
    for (const e of messageOf(f, at || 'Duration')) {
      if (e.number === 1) ns = int64Of(e, at || 'Duration');
    }
    return formatGoDuration(ns);
  },
  zero: '0s',
  isEmpty: () => false,
  struct: true,
  encode(w, n, v, at) {
    const ns = typeof v === 'string' ? parseGoDuration(v) : undefined;
    expectType(ns !== undefined, at, 'a duration', v);
    w.uint32(tag(n, LEN))
      .fork()
      .uint32(tag(1, 0))
      .int64(ns ?? 0)
      .ldelim();
  },
};

/**
 * runtime.RawExtension and metav1.FieldsV1 {1 raw}: the raw bytes are the JSON itself (what client-go puts in a
 * ControllerRevision's data or a managedFields entry); null when empty, as their MarshalJSON writes it.
 */
export function rawJson(label: string): ValueType {
  return {
    label,
    decode(f, at) {
      let raw: Buffer | undefined;
      for (const e of messageOf(f, at || label)) {
        if (e.number === 1) raw = bytesOf(e, at || label);
      }
      if (!raw || raw.length === 0) return null;
      try {
        return JSON.parse(raw.toString('utf8')) as JsonValue;
      } catch {
        throw new ProtobufDecodeError(`invalid protobuf in ${at || label}: ${label} raw is not JSON`);
      }
    },
    zero: null,
    isEmpty: (v) => v === null,
    struct: true,
    encode(w, n, v) {
      // The JSON text as the raw bytes: a length-delimited UTF-8 run, which is what a string is on the wire.
      w.uint32(tag(n, LEN)).fork().uint32(tag(1, LEN)).string(JSON.stringify(v)).ldelim();
    },
  };
}

export const rawExtension = rawJson('RawExtension');
export const fieldsV1 = rawJson('FieldsV1');

/**
 * A Go named slice with a message of its own on the wire ({1 repeated items}): metav1.Verbs, the review kinds'
 * ExtraValue. JSON writes the slice itself; null when nil.
 */
export function listWrapper(label: string, item: ValueType): ValueType {
  return {
    label,
    decode(f, at) {
      const out: JsonValue[] = [];
      for (const e of messageOf(f, at || label)) {
        if (e.number === 1) out.push(item.decode(e, `${at}[${out.length}]`) ?? null);
      }
      return out;
    },
    zero: null,
    isEmpty: (v) => v === null || (Array.isArray(v) && v.length === 0),
    struct: false,
    encode(w, n, v, at) {
      expectType(Array.isArray(v), at, 'a list', v);
      w.uint32(tag(n, LEN)).fork();
      (v as JsonValue[]).forEach((e, i) => {
        if (e !== null) item.encode(w, 1, e, `${at}[${i}]`);
      });
      w.ldelim();
    },
  };
}
