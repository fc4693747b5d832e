import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { flowTransition, fromCoreEvent, pinTransition } from '../../src/notify/event-feed.js';

const SHA = 'd'.repeat(40);
const source = (commit?: string): KubeObject => ({
  apiVersion: 'flowops.io/v1',
  kind: 'FlowSource',
  metadata: { name: 'ops', namespace: 'team' },
  spec: { url: 'http://git/ops.git', ref: { branch: 'main', ...(commit ? { commit } : {}) } },
});
const flow = (conditions: Array<{ type: string; status: string; reason?: string; message?: string }>): KubeObject => ({
  apiVersion: 'flowops.io/v1',
  kind: 'Flow',
  metadata: { name: 'db', namespace: 'team', annotations: { 'flowops.io/revision': `main@sha1:${SHA}` } },
  status: { conditions },
});

describe('what the notifier reads as events', () => {
  it('a pin and an unpin of a FlowSource (flowops rollback --to / --unpin)', () => {
    expect(pinTransition(source(SHA), source())).toMatchObject({
      reason: 'Pinned',
      message: `pinned to commit ${SHA}`,
    });
    expect(pinTransition(source(), source(SHA))).toMatchObject({ reason: 'Unpinned', severity: 'info' });
    expect(pinTransition(source(), source())).toBeUndefined();
  });

  it("a Flow's Ready and Stalled transitions, with the commit it came from", () => {
    const ready = flow([{ type: 'Ready', status: 'True', message: 'all 3 ready' }]);
    const failing = flow([{ type: 'Ready', status: 'False', reason: 'ReconcileFailed', message: '1 of 3 failing' }]);
    const stalled = flow([
      { type: 'Ready', status: 'False', reason: 'InvalidSpec' },
      { type: 'Stalled', status: 'True', reason: 'InvalidSpec', message: 'spec.watch: bad' },
    ]);
    expect(flowTransition(failing, ready)).toMatchObject({
      reason: 'NotReady',
      severity: 'error',
      revision: `main@sha1:${SHA}`,
    });
    expect(flowTransition(ready, failing)).toMatchObject({ reason: 'Ready', severity: 'info', message: 'all 3 ready' });
    expect(flowTransition(stalled, failing)).toMatchObject({ reason: 'Stalled', message: 'spec.watch: bad' });
    expect(flowTransition(ready, ready)).toBeUndefined();
  });

  it("FlowOps' own Events only, with the revision split off the message", () => {
    const event = (component: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'team' },
      involvedObject: { apiVersion: 'flowops.io/v1', kind: 'FlowSource', name: 'ops', namespace: 'team' },
      type: 'Warning',
      reason: 'ValidationFailed',
      message: `main@sha1:${SHA}: commit rejected, nothing applied: a.yaml:3: spec: bad`,
      source: { component },
      lastTimestamp: '2026-12-01T21:00:00Z',
    });
    expect(fromCoreEvent(event('flowops-source'))).toEqual({
      involved: { apiVersion: 'flowops.io/v1', kind: 'FlowSource', name: 'ops', namespace: 'team' },
      severity: 'error',
      reason: 'ValidationFailed',
      message: 'commit rejected, nothing applied: a.yaml:3: spec: bad',
      revision: `main@sha1:${SHA}`,
      time: '2026-12-01T21:00:00Z',
    });
    expect(fromCoreEvent(event('deployment-controller'))).toBeUndefined();
  });
});
