import { describe, expect, it } from 'vitest';
import { decodeKubeProtobuf, isProtobufContentType, ProtobufDecodeError } from '../../src/apiserver/protobuf/index.js';
import {
  bool,
  configMapBody,
  envelope,
  fixed32,
  fixed64,
  int,
  msg,
  namespaceBody,
  objectMeta,
  secretBody,
  str,
} from './helpers/pb-encoder.js';

describe('isProtobufContentType', () => {
  it.each([
    ['application/vnd.kubernetes.protobuf', true],
    ['application/vnd.kubernetes.protobuf; charset=utf-8', true],
    ['Application/VND.Kubernetes.Protobuf', true],
    ['  application/vnd.kubernetes.protobuf ;stream=watch', true],
    ['application/json', false],
    ['application/vnd.kubernetes.protobuf+json', false],
    ['', false],
    [undefined, false],
  ])('%s -> %s', (ct, want) => {
    expect(isProtobufContentType(ct)).toBe(want);
  });
});

describe('decodeKubeProtobuf: kubectl create namespace', () => {
  it('decodes the body as encoding/json writes the Go struct: zero scalars dropped, empty structs kept', () => {
    const out = decodeKubeProtobuf(namespaceBody({ name: 'team-a' }));
    expect(out.apiVersion).toBe('v1');
    expect(out.kind).toBe('Namespace');
    // kubectl's JSON body for the same command is {"metadata":{"name":"team-a"},"spec":{},"status":{}} too.
    expect(out.object).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
      spec: {},
      status: {},
    });
    expect(Object.keys(out.object)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  });

  it('treats creationTimestamp {seconds: 0} like the empty Time message', () => {
    const out = decodeKubeProtobuf(namespaceBody({ name: 'ns', explicitZeroSeconds: true }));
    expect(out.object.metadata).toEqual({ name: 'ns' });
  });

  it('keeps spec.finalizers and a non-empty status phase', () => {
    const raw = Buffer.concat([objectMeta({ name: 'ns' }), msg(2, str(1, 'kubernetes')), msg(3, str(1, 'Active'))]);
    const out = decodeKubeProtobuf(envelope('v1', 'Namespace', raw));
    expect(out.object).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'ns' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  it('decodes the full ObjectMeta', () => {
    const body = namespaceBody({
      name: 'full',
      generateName: 'gen-',
      uid: 'u-1',
      resourceVersion: '42',
      generation: 3,
      creationSeconds: 1_700_000_000,
      deletionGracePeriodSeconds: 0,
      labels: { b: '2', a: '1', empty: '' },
      annotations: { note: 'héllo' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'x', controller: true, blockOwnerDeletion: false },
      ],
      finalizers: ['f1', 'f2'],
    });
    expect(decodeKubeProtobuf(body).object.metadata).toEqual({
      name: 'full',
      generateName: 'gen-',
      uid: 'u-1',
      resourceVersion: '42',
      generation: 3,
      creationTimestamp: '2023-11-14T22:13:20Z',
      deletionGracePeriodSeconds: 0,
      labels: { a: '1', b: '2', empty: '' },
      annotations: { note: 'héllo' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'x', controller: true, blockOwnerDeletion: false },
      ],
      finalizers: ['f1', 'f2'],
    });
  });

  it('emits metadata keys in ObjectMeta declaration order', () => {
    const meta = decodeKubeProtobuf(namespaceBody({ name: 'n', uid: 'u', labels: { a: 'b' }, finalizers: ['f'] }))
      .object.metadata as object;
    expect(Object.keys(meta)).toEqual(['name', 'uid', 'labels', 'finalizers']);
  });

  it('reads negative int64 values', () => {
    const raw = msg(1, str(1, 'n'), int(10, -5));
    expect(decodeKubeProtobuf(envelope('v1', 'Namespace', raw)).object.metadata).toEqual({
      name: 'n',
      deletionGracePeriodSeconds: -5,
    });
  });

  it('skips fields it does not know, of every wire type', () => {
    const raw = Buffer.concat([
      objectMeta({ name: 'n' }),
      int(90, 7),
      fixed32(91, 1),
      fixed64(92, 2n),
      str(93, 'x'),
      msg(94, str(1, 'y')),
    ]);
    expect(decodeKubeProtobuf(envelope('v1', 'Namespace', raw)).object).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n' },
      spec: {},
      status: {},
    });
  });

  it('keeps managedFields, with fieldsV1 as the JSON its raw bytes hold', () => {
    const meta = msg(
      1,
      str(1, 'n'),
      msg(17, str(1, 'kubectl'), str(2, 'Update'), str(6, 'FieldsV1'), msg(7, str(1, '{"f:data":{}}'))),
    );
    expect(decodeKubeProtobuf(envelope('v1', 'Namespace', meta)).object.metadata).toEqual({
      name: 'n',
      managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
    });
  });
});

describe('decodeKubeProtobuf: kubectl create configmap', () => {
  it('decodes data, binaryData (base64) and immutable', () => {
    const body = configMapBody(
      { name: 'cfg', namespace: 'default' },
      { 'app.conf': 'x=1\n', empty: '' },
      { blob: Buffer.from([0, 1, 2, 255]) },
      true,
    );
    expect(decodeKubeProtobuf(body).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'default' },
      data: { 'app.conf': 'x=1\n', empty: '' },
      binaryData: { blob: 'AAEC/w==' },
      immutable: true,
    });
  });

  it('omits empty maps and an unset immutable', () => {
    expect(decodeKubeProtobuf(configMapBody({ name: 'c' }, {})).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
    });
  });

  it('keeps immutable: false when it was sent', () => {
    expect(decodeKubeProtobuf(configMapBody({ name: 'c' }, {}, {}, false)).object.immutable).toBe(false);
  });

  it('accepts map entries that leave out an empty key or value', () => {
    const raw = Buffer.concat([objectMeta({ name: 'c' }), msg(2, str(1, 'k')), msg(2, str(2, 'v'))]);
    expect(decodeKubeProtobuf(envelope('v1', 'ConfigMap', raw)).object.data).toEqual({ k: '', '': 'v' });
  });
});

describe('decodeKubeProtobuf: kubectl create secret', () => {
  it('decodes data as base64, type, stringData and immutable', () => {
    const body = secretBody(
      { name: 's', namespace: 'prod' },
      { password: Buffer.from('s3cr3t'), bin: Buffer.from([0xff, 0xfe]) },
      'Opaque',
      { user: 'admin' },
      false,
    );
    expect(decodeKubeProtobuf(body).object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'prod' },
      data: { bin: '//4=', password: 'czNjcjN0' },
      type: 'Opaque',
      stringData: { user: 'admin' },
      immutable: false,
    });
  });

  it('drops an empty type', () => {
    expect(decodeKubeProtobuf(secretBody({ name: 's' }, {}, '')).object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
    });
  });

  it('keeps a tls secret type', () => {
    const out = decodeKubeProtobuf(
      secretBody({ name: 't' }, { 'tls.crt': Buffer.from('c'), 'tls.key': Buffer.from('k') }, 'kubernetes.io/tls'),
    );
    expect(out.object.type).toBe('kubernetes.io/tls');
    expect(out.object.data).toEqual({ 'tls.crt': 'Yw==', 'tls.key': 'aw==' });
  });
});

describe('decodeKubeProtobuf: errors', () => {
  const good = namespaceBody({ name: 'team-a', labels: { a: 'b' } });

  it('rejects a body without the k8s\\0 prefix', () => {
    expect(() => decodeKubeProtobuf(Buffer.from('{"kind":"Namespace"}'))).toThrow(/missing the "k8s\\0" prefix/);
    expect(() => decodeKubeProtobuf(Buffer.from([0x6b, 0x38]))).toThrow(ProtobufDecodeError);
  });

  it('rejects every truncation of a valid body with a clear error', () => {
    // The last 4 bytes are the optional empty contentEncoding and contentType: cutting them off leaves a valid message.
    for (let n = 0; n < good.length - 4; n++) {
      let err: unknown;
      try {
        decodeKubeProtobuf(good.subarray(0, n));
      } catch (e) {
        err = e;
      }
      expect(err, `prefix of ${n} bytes`).toBeInstanceOf(ProtobufDecodeError);
      expect((err as Error).message).toMatch(/truncated|no kind|no object|prefix/);
    }
  });

  it('names the truncation', () => {
    expect(() => decodeKubeProtobuf(good.subarray(0, good.length - 3))).toThrow(/truncated/);
  });

  it('rejects kinds it has no decoder for', () => {
    expect(() => decodeKubeProtobuf(envelope('example.com/v1', 'Widget', objectMeta({ name: 'd' })))).toThrow(
      'no protobuf decoder for example.com/v1, Kind=Widget',
    );
    expect(() => decodeKubeProtobuf(envelope('apps/v1', 'NoSuchKind', objectMeta({ name: 'd' })))).toThrow(
      'no protobuf decoder for apps/v1, Kind=NoSuchKind',
    );
  });

  it('rejects an envelope without a kind', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', '', Buffer.alloc(0)))).toThrow(/no kind/);
  });

  it('rejects an envelope without the object', () => {
    const noRaw = Buffer.concat([Buffer.from('k8s\0', 'latin1'), msg(1, str(1, 'v1'), str(2, 'Namespace'))]);
    expect(() => decodeKubeProtobuf(noRaw)).toThrow(
      'protobuf body for Namespace has no object in it (runtime.Unknown raw is missing)',
    );
  });

  it('rejects a content encoding', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', objectMeta({ name: 'n' }), 'gzip'))).toThrow(
      /content encoding "gzip"/,
    );
  });

  it('rejects a field with the wrong wire type', () => {
    const raw = msg(1, int(1, 5));
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', raw))).toThrow(/field 1 has wire type 0, expected 2/);
  });

  it('rejects group wire types and field number 0', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', Buffer.from([0x0b])))).toThrow(/wire type 3/);
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', Buffer.from([0x00, 0x00])))).toThrow(/field number 0/);
  });

  it('rejects an overlong varint', () => {
    const raw = Buffer.concat([Buffer.from([0x38]), Buffer.alloc(11, 0xff)]);
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', msg(1, raw)))).toThrow(/varint/);
  });

  it('rejects a timestamp outside what a date can hold', () => {
    const raw = msg(1, str(1, 'n'), msg(8, int(1, 1e15)));
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', raw))).toThrow(/out of range/);
  });

  it('rejects invalid UTF-8 in a string', () => {
    const raw = msg(1, Buffer.from([0x0a, 0x02, 0xc3, 0x28]));
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', raw))).toThrow(/not valid UTF-8/);
  });

  it('decodes a boolean written with a multi-byte varint', () => {
    const raw = Buffer.concat([objectMeta({ name: 'c' }), Buffer.from([0x20, 0x81, 0x00])]);
    expect(decodeKubeProtobuf(envelope('v1', 'ConfigMap', raw)).object.immutable).toBe(true);
    expect(bool(4, true)).toEqual(Buffer.from([0x20, 0x01]));
  });
});
