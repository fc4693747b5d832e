import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { KubeClient } from '../../src/kube/client.js';
import { EventRecorder } from '../../src/kube/events.js';
import type { KubeObject } from '../../src/kube/types.js';
import { RunHistoryWriter } from '../../src/engine/run-history.js';
import type { Run } from '../../src/api/run-history.js';
import { runHistoryCrd } from '../../src/api/run-history-crd.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

// client-go's EventCorrelator against the embedded API server: the same Event again is a count
// on the Event already written, not another Event. And a RunHistory that counts the runs which
// changed nothing, writing the count with the next run it records.

let ts: TestServer;
let kube: KubeClient;
let owner: KubeObject;

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  owner = await kube.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'noisy', namespace: 'default' },
    data: { a: '1' },
  } as KubeObject);
});
afterAll(async () => ts?.stop());

interface Event {
  metadata: { name: string };
  reason: string;
  message: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}
const eventsOf = async (reason: string): Promise<Event[]> =>
  ((await kube.list('v1', 'Event', { namespace: 'default' })).items as unknown as Event[]).filter(
    (e) => e.reason === reason,
  );

describe('Event aggregation', () => {
  it('bumps the count of the same Event: 1, 2, 3, one object', async () => {
    const events = new EventRecorder(kube, 'flowops');
    const counts: number[] = [];
    const names = new Set<string>();
    for (let i = 0; i < 3; i++) {
      await events.record(owner, 'Warning', 'ReconcileFailed', 'step "a" failed: boom');
      const found = await eventsOf('ReconcileFailed');
      expect(found).toHaveLength(1);
      counts.push(found[0]!.count);
      names.add(found[0]!.metadata.name);
    }
    expect(counts).toEqual([1, 2, 3]);
    expect(names.size).toBe(1);
    const [e] = await eventsOf('ReconcileFailed');
    expect(Date.parse(e!.lastTimestamp)).toBeGreaterThanOrEqual(Date.parse(e!.firstTimestamp));
  });

  it('counts bumps that arrive together, in order, on one Event', async () => {
    const events = new EventRecorder(kube, 'flowops');
    await Promise.all(Array.from({ length: 5 }, () => events.record(owner, 'Normal', 'Burst', 'five at once')));
    const found = await eventsOf('Burst');
    expect(found.map((e) => e.count)).toEqual([5]);
  });

  it('starts another Event for another message, and a new one when the counted Event is gone', async () => {
    const events = new EventRecorder(kube, 'flowops');
    await events.record(owner, 'Normal', 'Other', 'first');
    await events.record(owner, 'Normal', 'Other', 'second');
    expect((await eventsOf('Other')).map((e) => [e.message, e.count]).sort()).toEqual([
      ['first', 1],
      ['second', 1],
    ]);
    const first = (await eventsOf('Other')).find((e) => e.message === 'first')!;
    await kube.delete({ apiVersion: 'v1', kind: 'Event', namespace: 'default', name: first.metadata.name });
    await events.record(owner, 'Normal', 'Other', 'first');
    const again = (await eventsOf('Other')).filter((e) => e.message === 'first');
    expect(again.map((e) => e.count)).toEqual([1]);
    expect(again[0]!.metadata.name).not.toBe(first.metadata.name);
  });
});

describe('RunHistory counts unchanged runs', () => {
  const run = (i: number): Run => ({
    startTime: new Date().toISOString(),
    duration: '1ms',
    outcome: 'Succeeded',
    flowGeneration: 1,
    steps: [{ name: `s${i}`, result: 'succeeded', attempts: 1, duration: '1ms' }],
  });
  const flow = { namespace: 'default', name: 'f' };
  const total = async (): Promise<number | undefined> =>
    (
      (await kube.get({
        apiVersion: 'flowops.io/v1',
        kind: 'RunHistory',
        namespace: 'default',
        name: 'configmap-noisy',
      })) as { status?: { total?: number } } | undefined
    )?.status?.total;

  it('writes nothing for an unchanged run, then adds the count with the next run, and flushes a count alone', async () => {
    await kube.apply(runHistoryCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
    const history = new RunHistoryWriter(kube, pino({ level: 'silent' }), 60 * 60_000);
    await history.record(owner, flow, run(1));
    expect(await total()).toBe(1);
    history.countUnchanged(owner, flow);
    history.countUnchanged(owner, flow);
    expect(history.pendingUnchanged(owner, flow)).toBe(2);
    expect(await total()).toBe(1);
    await history.record(owner, flow, run(2));
    expect(await total()).toBe(4);
    history.countUnchanged(owner, flow);
    await history.flushUnchanged();
    expect(await total()).toBe(5);
    expect(history.pendingUnchanged(owner, flow)).toBe(0);
    await history.drain();
  });
});
