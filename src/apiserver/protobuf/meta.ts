import { ProtobufDecodeError } from './errors.js';
import { bytesOf, int64Of, messageOf, stringOf, type Field } from './reader.js';

/** Go's zero time.Time as Unix seconds: what a zero metav1.Time becomes if it is encoded anyway. */
const GO_ZERO_TIME = -62135596800;

/** A map<string, V> entry: {1 key, 2 value}; either may be missing when empty. */
export function mapEntry(f: Field, what: string): { key: string; value: Buffer } {
  let key = '';
  let value: Buffer = Buffer.alloc(0);
  for (const e of messageOf(f, what)) {
    if (e.number === 1) key = stringOf(e, what);
    else if (e.number === 2) value = bytesOf(e, what);
  }
  return { key, value };
}

/** {seconds, nanos} as RFC 3339 in UTC, with `fractionDigits` digits (0: whole seconds), or undefined when zero. */
export function formatTimestamp(
  seconds: number,
  nanos: number,
  fractionDigits: number,
  what: string,
): string | undefined {
  if ((seconds === 0 && nanos === 0) || seconds === GO_ZERO_TIME) return undefined;
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime()))
    throw new ProtobufDecodeError(`invalid protobuf in ${what}: time ${seconds}s is out of range`);
  const fraction = fractionDigits
    ? `.${String(Math.floor(nanos / 10 ** (9 - fractionDigits))).padStart(fractionDigits, '0')}`
    : '';
  return date.toISOString().replace(/\.\d{3}Z$/, `${fraction}Z`);
}

/** A metav1.Time or MicroTime {1 seconds, 2 nanos} message. */
export function timestampOf(f: Field, fractionDigits: number, what: string): string | undefined {
  let seconds = 0;
  let nanos = 0;
  for (const e of messageOf(f, what)) {
    if (e.number === 1) seconds = int64Of(e, what);
    else if (e.number === 2) nanos = int64Of(e, what);
  }
  return formatTimestamp(seconds, nanos, fractionDigits, what);
}

/** metav1.Time: RFC 3339 with whole seconds. */
export const timeOf = (f: Field, what: string): string | undefined => timestampOf(f, 0, what);
