import { describe, expect, it } from 'vitest';
import { decodeKubeProtobuf, ProtobufDecodeError } from '../../src/apiserver/protobuf/index.js';
import { bool, bytesField, envelope, int, msg, objectMeta, str, varint } from './helpers/pb-encoder.js';

/** The table-driven decoders (src/apiserver/protobuf/api): Go JSON rules and unknown fields. */

const decode = (apiVersion: string, kind: string, ...parts: Buffer[]) =>
  decodeKubeProtobuf(envelope(apiVersion, kind, Buffer.concat(parts))).object;

/** A Deployment whose pod spec holds `containers` (each the bytes of one Container). */
function deployment(...containers: Buffer[]): Buffer[] {
  return [objectMeta({ name: 'd' }), msg(2, msg(3, msg(2, ...containers.map((c) => msg(2, c)))))];
}

describe('protobuf tables: what JSON gets', () => {
  it('keeps a pointer set to its zero value and drops omitempty zeros', () => {
    const out = decode('v1', 'ServiceAccount', objectMeta({ name: 'sa' }), bool(4, false));
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa' },
      automountServiceAccountToken: false,
    });
  });

  it('writes required fields and non-pointer structs even when they are not on the wire', () => {
    const out = decode('v1', 'Service', objectMeta({ name: 's' }), msg(2, msg(1, str(1, 'p'))));
    expect(out.spec).toEqual({ ports: [{ name: 'p', port: 0, targetPort: 0 }] });
    expect(out.status).toEqual({ loadBalancer: {} });
  });

  it('writes a pointer without omitempty as null when it is unset (GRPCAction.service)', () => {
    const probe = msg(22, msg(1, msg(4, int(1, 9090))));
    const out = decode('apps/v1', 'Deployment', ...deployment(Buffer.concat([str(1, 'c'), probe])));
    const c = ((out.spec as any).template.spec.containers as any[])[0];
    expect(c.startupProbe).toEqual({ grpc: { port: 9090, service: null } });
    expect(c.resources).toEqual({});
  });

  it('reads IntOrString as a number or a string, and Quantity maps', () => {
    const port = (p: Buffer) => msg(1, int(3, 80), msg(4, p));
    const out = decode(
      'v1',
      'Service',
      objectMeta({ name: 's' }),
      msg(2, port(Buffer.concat([int(1, 0), int(2, 8080)])), port(Buffer.concat([int(1, 1), str(3, 'http')]))),
    );
    expect((out.spec as any).ports.map((p: any) => p.targetPort)).toEqual([8080, 'http']);
    const quota = decode(
      'v1',
      'ResourceQuota',
      objectMeta({ name: 'q' }),
      msg(2, msg(1, str(1, 'cpu'), msg(2, str(1, '500m'))), msg(1, str(1, 'pods'))),
    );
    expect((quota.spec as any).hard).toEqual({ cpu: '500m', pods: '0' });
  });

  it('reads repeated int32 written one by one or packed', () => {
    const rule = (values: Buffer) => msg(11, msg(1, str(1, 'FailJob'), msg(2, str(2, 'In'), values)));
    const job = (values: Buffer) => decode('batch/v1', 'Job', objectMeta({ name: 'j' }), msg(2, rule(values)));
    const want = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42, 300] } }] };
    expect((job(Buffer.concat([int(3, 42), int(3, 300)])).spec as any).podFailurePolicy).toEqual(want);
    expect((job(bytesField(3, Buffer.concat([varint(42), varint(300)]))).spec as any).podFailurePolicy).toEqual(want);
  });

  it('keeps the last occurrence of a non-repeated field, as protobuf does', () => {
    const out = decode('scheduling.k8s.io/v1', 'PriorityClass', objectMeta({ name: 'p' }), int(2, 1), int(2, 7));
    expect(out.value).toBe(7);
  });
});

describe('protobuf tables: fields they do not know', () => {
  it('skips a field number 1.34 has no field for, of any wire type, as gogo-generated Unmarshal does', () => {
    const body = envelope(
      'apps/v1',
      'Deployment',
      Buffer.concat(deployment(str(1, 'a'), Buffer.concat([str(1, 'b'), int(99, 1)]))),
    );
    const c = ((decodeKubeProtobuf(body).object.spec as any).template.spec.containers as any[])[1];
    expect(c.name).toBe('b');
    const out = decode('v1', 'ServiceAccount', objectMeta({ name: 'sa' }), str(50, ''), msg(51), int(52, 0));
    expect(out).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } });
  });

  it('names the kind when a known field has the wrong wire type', () => {
    expect(() => decode('rbac.authorization.k8s.io/v1', 'Role', objectMeta({ name: 'r' }), msg(2, int(1, 3)))).toThrow(
      /^cannot decode rbac.authorization.k8s.io\/v1, Kind=Role from protobuf: invalid protobuf in rules\[0\].verbs\[0\]: field 1 has wire type 0, expected 2$/,
    );
    expect(decodeKubeProtobuf).toBeTypeOf('function');
    expect(ProtobufDecodeError).toBeTypeOf('function');
  });
});
