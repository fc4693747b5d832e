/**
 * A minimal protocol-buffers writer: just the wire types the OpenAPI v2 document needs
 * (varint for bools, length-delimited for strings and nested messages). proto3 semantics:
 * default values (empty string, false) are not written.
 */
export class ProtoWriter {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  /** Field of type string (wire type 2). Empty strings are skipped, as proto3 does. */
  string(field: number, value: string | undefined): this {
    if (!value) return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  /** Each element of a `repeated string` field. */
  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.bytes(field, Buffer.from(v, 'utf8'));
    return this;
  }

  /** Field of type bool (wire type 0). `false` is skipped. */
  bool(field: number, value: boolean | undefined): this {
    if (!value) return this;
    this.tag(field, 0);
    this.push(varint(1));
    return this;
  }

  /** A bool inside a `oneof`, where presence is the point: `false` is written too. */
  boolPresent(field: number, value: boolean): this {
    this.tag(field, 0);
    this.push(varint(value ? 1 : 0));
    return this;
  }

  /** Field of type int64 holding a non-negative integer (wire type 0). Zero is skipped. */
  int64(field: number, value: number | undefined): this {
    if (!value) return this;
    this.tag(field, 0);
    this.push(varint(value));
    return this;
  }

  /** Field of type double (wire type 1, little-endian). Zero is skipped. */
  double(field: number, value: number | undefined): this {
    if (!value) return this;
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.push(b);
    return this;
  }

  /** An embedded message (wire type 2); `build` fills it. Always written, even when empty. */
  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  /** Length-delimited raw bytes. */
  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2);
    this.push(varint(data.length));
    this.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }

  private tag(field: number, wireType: number): void {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fffffff)
      throw new RangeError(`bad protobuf field number ${field}`);
    this.push(varint(field * 8 + wireType));
  }

  private push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
  }
}

/** Unsigned varint of a non-negative safe integer. */
export function varint(n: number): Buffer {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`varint needs a non-negative safe integer, got ${n}`);
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}
