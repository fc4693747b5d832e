/**
 * A tiny protobuf encoder producing bodies shaped like kubectl's (gogo-protobuf generated code):
 * every non-pointer scalar is written even when zero, so decoders must normalise zero values away.
 */

export function varint(n: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

const key = (field: number, wire: number): Buffer => varint((field << 3) | wire);

export function bytesField(field: number, value: Buffer): Buffer {
  return Buffer.concat([key(field, 2), varint(value.length), value]);
}

export function str(field: number, s: string): Buffer {
  return bytesField(field, Buffer.from(s, 'utf8'));
}

export function int(field: number, n: number | bigint): Buffer {
  return Buffer.concat([key(field, 0), varint(n)]);
}

export function bool(field: number, b: boolean): Buffer {
  return int(field, b ? 1 : 0);
}

export function msg(field: number, ...parts: Buffer[]): Buffer {
  return bytesField(field, Buffer.concat(parts));
}

export function fixed32(field: number, n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return Buffer.concat([key(field, 5), b]);
}

export function fixed64(field: number, n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return Buffer.concat([key(field, 1), b]);
}

/** Map entries in key order, as Go's generated marshallers sort them. */
export function mapField(field: number, entries: Record<string, string | Buffer>): Buffer {
  return Buffer.concat(
    Object.keys(entries)
      .sort()
      .map((k) => {
        const v = entries[k]!;
        return msg(field, str(1, k), typeof v === 'string' ? str(2, v) : bytesField(2, v));
      }),
  );
}

export interface MetaInput {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  /** Unix seconds; undefined writes the empty Time message kubectl sends for a zero time. */
  creationSeconds?: number;
  /** Write `creationTimestamp {seconds: 0}` instead of an empty message. */
  explicitZeroSeconds?: boolean;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }>;
  finalizers?: string[];
}

/** ObjectMeta the way gogo marshals it: all strings, generation and creationTimestamp always present. */
export function objectMeta(m: MetaInput): Buffer {
  const created =
    m.creationSeconds !== undefined
      ? msg(8, int(1, m.creationSeconds), int(2, 0))
      : m.explicitZeroSeconds
        ? msg(8, int(1, 0))
        : msg(8);
  return msg(
    1,
    str(1, m.name ?? ''),
    str(2, m.generateName ?? ''),
    str(3, m.namespace ?? ''),
    str(4, ''),
    str(5, m.uid ?? ''),
    str(6, m.resourceVersion ?? ''),
    int(7, m.generation ?? 0),
    created,
    ...(m.deletionGracePeriodSeconds !== undefined ? [int(10, m.deletionGracePeriodSeconds)] : []),
    mapField(11, m.labels ?? {}),
    mapField(12, m.annotations ?? {}),
    ...(m.ownerReferences ?? []).map((o) =>
      msg(
        13,
        str(1, o.kind),
        str(3, o.name),
        str(4, o.uid),
        str(5, o.apiVersion),
        ...(o.controller !== undefined ? [bool(6, o.controller)] : []),
        ...(o.blockOwnerDeletion !== undefined ? [bool(7, o.blockOwnerDeletion)] : []),
      ),
    ),
    ...(m.finalizers ?? []).map((f) => str(14, f)),
  );
}

/** `k8s\0` + runtime.Unknown{typeMeta, raw, contentEncoding "", contentType ""}. */
export function envelope(apiVersion: string, kind: string, raw: Buffer, contentEncoding = ''): Buffer {
  return Buffer.concat([
    Buffer.from([0x6b, 0x38, 0x73, 0x00]),
    msg(1, str(1, apiVersion), str(2, kind)),
    bytesField(2, raw),
    str(3, contentEncoding),
    str(4, ''),
  ]);
}

/** What `kubectl create namespace <name>` sends. */
export function namespaceBody(meta: MetaInput, finalizers: string[] = []): Buffer {
  return envelope(
    'v1',
    'Namespace',
    Buffer.concat([objectMeta(meta), msg(2, ...finalizers.map((f) => str(1, f))), msg(3, str(1, ''))]),
  );
}

/** What `kubectl create configmap <name> --from-literal=…` sends. */
export function configMapBody(
  meta: MetaInput,
  data: Record<string, string>,
  binaryData: Record<string, Buffer> = {},
  immutable?: boolean,
): Buffer {
  return envelope(
    'v1',
    'ConfigMap',
    Buffer.concat([
      objectMeta(meta),
      mapField(2, data),
      mapField(3, binaryData),
      ...(immutable !== undefined ? [bool(4, immutable)] : []),
    ]),
  );
}

/** What `kubectl create secret generic <name> --from-literal=…` sends. */
export function secretBody(
  meta: MetaInput,
  data: Record<string, Buffer>,
  type = 'Opaque',
  stringData: Record<string, string> = {},
  immutable?: boolean,
): Buffer {
  return envelope(
    'v1',
    'Secret',
    Buffer.concat([
      objectMeta(meta),
      mapField(2, data),
      str(3, type),
      mapField(4, stringData),
      ...(immutable !== undefined ? [bool(5, immutable)] : []),
    ]),
  );
}
