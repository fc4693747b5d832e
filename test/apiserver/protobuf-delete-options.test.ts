import { describe, expect, it } from 'vitest';
import { decodeDeleteOptionsProtobuf, ProtobufDecodeError } from '../../src/apiserver/protobuf/index.js';
import { bool, envelope, int, msg, str } from './helpers/pb-encoder.js';

/** metav1.DeleteOptions: 1 gracePeriodSeconds, 2 preconditions {1 uid, 2 resourceVersion}, 3 orphanDependents, 4 propagationPolicy, 5 dryRun, 6 ignoreStoreReadError…. */
describe('decodeDeleteOptionsProtobuf', () => {
  it('reads the body helm 4 sends on uninstall (an empty DeleteOptions)', () => {
    const helm = Buffer.from('6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200', 'hex');
    expect(decodeDeleteOptionsProtobuf(helm)).toEqual({});
  });

  it('reads every field, in Go declaration order, zero values that are on the wire included', () => {
    const raw = Buffer.concat([
      str(5, 'All'),
      str(4, 'Foreground'),
      bool(3, false),
      msg(2, str(1, 'u-1'), str(2, '42')),
      int(1, 0),
      bool(6, true),
    ]);
    const out = decodeDeleteOptionsProtobuf(envelope('meta.k8s.io/v1', 'DeleteOptions', raw));
    expect(out).toEqual({
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u-1', resourceVersion: '42' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    });
    expect(Object.keys(out)).toEqual([
      'gracePeriodSeconds',
      'preconditions',
      'orphanDependents',
      'propagationPolicy',
      'dryRun',
      'ignoreStoreReadErrorWithClusterBreakingPotential',
    ]);
  });

  it('accepts the group version of whichever client sent it', () => {
    expect(decodeDeleteOptionsProtobuf(envelope('apps/v1', 'DeleteOptions', str(4, 'Orphan')))).toEqual({
      propagationPolicy: 'Orphan',
    });
  });

  it('skips a field number it does not know, as gogo-generated Unmarshal does', () => {
    const body = envelope('v1', 'DeleteOptions', Buffer.concat([str(4, 'Orphan'), int(9, 1)]));
    expect(decodeDeleteOptionsProtobuf(body)).toEqual({ propagationPolicy: 'Orphan' });
    const inPreconditions = envelope('v1', 'DeleteOptions', msg(2, int(3, 7)));
    expect(decodeDeleteOptionsProtobuf(inPreconditions)).toEqual({ preconditions: {} });
  });

  it('refuses another kind, a missing prefix, and a truncated body', () => {
    expect(() => decodeDeleteOptionsProtobuf(envelope('v1', 'Namespace', Buffer.alloc(0)))).toThrow(
      'expected a DeleteOptions body, got v1, Kind=Namespace',
    );
    expect(() => decodeDeleteOptionsProtobuf(Buffer.from('{}'))).toThrow(ProtobufDecodeError);
    const full = envelope('v1', 'DeleteOptions', str(4, 'Orphan'));
    expect(() => decodeDeleteOptionsProtobuf(full.subarray(0, full.length - 8))).toThrow(ProtobufDecodeError);
  });
});
