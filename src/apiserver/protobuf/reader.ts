import { ProtobufDecodeError } from './errors.js';

/**
 * A decoded field: a varint as a number when it has at most 7 bytes (< 2^49, exact), else as a bigint (a negative
 * int64 takes 10); length-delimited as raw bytes.
 */
export type FieldValue =
  | { wire: 0; value: number | bigint }
  | { wire: 2; bytes: Buffer }
  | { wire: 1 | 5; bytes: Buffer };

export interface Field {
  number: number;
  value: FieldValue;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The protobuf wire format, only as much of it as k8s.io/api generated messages use. */
export class ProtoReader {
  private pos = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly what: string,
  ) {}

  /** `kubeText`: what gogo's generated Unmarshal says for the same bytes (kube-apiserver's answer quotes it). */
  private fail(why: string, kubeText = 'unexpected EOF'): never {
    throw new ProtobufDecodeError(`invalid protobuf in ${this.what} at byte ${this.pos}: ${why}`, kubeText);
  }

  /** Most varints are tags, lengths and small numbers: read them without BigInt. */
  private varint(): number | bigint {
    const buf = this.buf;
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      const at = this.pos + i;
      if (at >= buf.length) break;
      const b = buf[at]!;
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) {
        this.pos = at + 1;
        return result;
      }
      mul *= 128;
    }
    return this.bigVarint();
  }

  private bigVarint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.length) this.fail('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    return this.fail('varint longer than 10 bytes', 'proto: integer overflow');
  }

  private take(n: number): Buffer {
    if (n < 0 || this.pos + n > this.buf.length)
      this.fail(`truncated: needs ${n} bytes, ${this.buf.length - this.pos} left`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A packed repeated scalar: varints back to back, each returned as an occurrence of `number`. */
  *varints(number: number): Generator<Field> {
    while (this.pos < this.buf.length) yield { number, value: { wire: 0, value: this.varint() } };
  }

  *fields(): Generator<Field> {
    while (this.pos < this.buf.length) {
      const key = this.varint();
      const number = typeof key === 'number' ? Math.floor(key / 8) : Number(key >> 3n);
      const wire = typeof key === 'number' ? key % 8 : Number(key & 7n);
      // gogo's checks, in its order: an end-group tag, then a field number that is not positive as an int32.
      if (wire === 4)
        this.fail(
          `wire type 4 (end group) for field ${number}`,
          `proto: ${this.what}: wiretype end group for non-group`,
        );
      const asInt32 =
        typeof key === 'number' && key < 2 ** 34 ? (key / 8) | 0 : Number(BigInt.asIntN(32, BigInt(key) >> 3n));
      if (asInt32 <= 0)
        this.fail(`field number ${number}`, `proto: ${this.what}: illegal tag ${asInt32} (wire type ${key})`);
      switch (wire) {
        case 0:
          yield { number, value: { wire: 0, value: this.varint() } };
          break;
        case 1:
          yield { number, value: { wire: 1, bytes: this.take(8) } };
          break;
        case 2: {
          const len = this.varint();
          if (len > this.buf.length) this.fail(`truncated: length ${len} exceeds the message`);
          yield { number, value: { wire: 2, bytes: this.take(Number(len)) } };
          break;
        }
        case 5:
          yield { number, value: { wire: 5, bytes: this.take(4) } };
          break;
        default:
          this.fail(`unsupported wire type ${wire} for field ${number}`, `proto: illegal wireType ${wire}`);
      }
    }
  }
}

function expect<W extends FieldValue['wire']>(f: Field, wire: W, what: string): Extract<FieldValue, { wire: W }> {
  if (f.value.wire !== wire)
    throw new ProtobufDecodeError(
      `invalid protobuf in ${what}: field ${f.number} has wire type ${f.value.wire}, expected ${wire}`,
    );
  return f.value as Extract<FieldValue, { wire: W }>;
}

export function bytesOf(f: Field, what: string): Buffer {
  return expect(f, 2, what).bytes;
}

export function stringOf(f: Field, what: string): string {
  try {
    return utf8.decode(bytesOf(f, what));
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw e;
    throw new ProtobufDecodeError(`invalid protobuf in ${what}: field ${f.number} is not valid UTF-8`);
  }
}

/** int64 fields: two's complement in the varint, so negative values come back negative. */
export function int64Of(f: Field, what: string): number {
  const v = expect(f, 0, what).value;
  return typeof v === 'number' ? v : Number(BigInt.asIntN(64, v));
}

export function boolOf(f: Field, what: string): boolean {
  const v = expect(f, 0, what).value;
  return v !== 0 && v !== 0n;
}

/** The fields of an embedded message, read eagerly so that truncation surfaces here. */
export function messageOf(f: Field, what: string): Field[] {
  return [...new ProtoReader(bytesOf(f, what), what).fields()];
}

export function readMessage(buf: Buffer, what: string): Field[] {
  return [...new ProtoReader(buf, what).fields()];
}

/** The elements of a packed repeated varint field (proto3 style; proto2 writes them one by one). */
export function packedVarints(f: Field, what: string): Field[] {
  return [...new ProtoReader(bytesOf(f, what), what).varints(f.number)];
}
