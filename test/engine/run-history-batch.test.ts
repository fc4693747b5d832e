import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHistoryCrd } from '../../src/api/run-history-crd.js';
import type { Run, RunHistory } from '../../src/api/run-history.js';
import { LAST_RUN_ANNOTATION } from '../../src/engine/last-run.js';
import { RunHistoryWriter } from '../../src/engine/run-history.js';
import { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/rest.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

// The RunHistory writer batches each record's runs: a burst of runs of one object is one write,
// a write the server refuses for now is tried again with the runs recorded since, and a stop
// writes what waits.

/** A client that counts its creates and replaces, and refuses the first `failures` of them as a server under load does (503). */
class CountingClient extends KubeClient {
  creates = 0;
  replaces = 0;
  failures = 0;
  constructor(base: KubeClient) {
    super(base.config, base.rest, base.discovery);
  }
  private refuse(): void {
    if (this.failures <= 0) return;
    this.failures--;
    throw new KubeApiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', '');
  }
  override async create(obj: KubeObject, opts: { fieldManager?: string } = {}): Promise<KubeObject> {
    this.creates++;
    this.refuse();
    return super.create(obj, opts);
  }
  override async replace(
    obj: KubeObject,
    opts: { subresource?: string; fieldManager?: string } = {},
  ): Promise<KubeObject> {
    this.replaces++;
    this.refuse();
    return super.replace(obj, opts);
  }
}

let ts: TestServer;
let kube: KubeClient;
const flow = { namespace: 'default', name: 'f' };
const silent = pino({ level: 'silent' });
const HOUR = 60 * 60_000;

const run = (i: number): Run => ({
  startTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  duration: '1ms',
  outcome: 'Succeeded',
  flowGeneration: 1,
  steps: [{ name: `s${i}`, result: 'succeeded', attempts: 1, duration: '1ms' }],
});
const stepsOf = (h: RunHistory | undefined): string[] => (h?.status?.runs ?? []).map((r) => r.steps[0]?.name ?? '');
const historyOf = async (name: string): Promise<RunHistory | undefined> =>
  (await kube.get({
    apiVersion: 'flowops.io/v1',
    kind: 'RunHistory',
    namespace: 'default',
    name: `configmap-${name}`,
  })) as unknown as RunHistory | undefined;
const owner = (name: string): Promise<KubeObject> =>
  kube.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default' },
  } as KubeObject);

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  await kube.apply(runHistoryCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
});
afterAll(async () => ts?.stop());

describe('RunHistory batches', () => {
  it("writes a burst of one object's runs in one write, newest first, every run counted", async () => {
    const obj = await owner('burst');
    const client = new CountingClient(kube);
    const history = new RunHistoryWriter(client, silent, HOUR, 200);
    const written = [1, 2].map((i) => history.record(obj, flow, run(i)));
    // A run that changed nothing between them: counted in the same write.
    history.countUnchanged(obj, flow);
    written.push(...[3, 4].map((i) => history.record(obj, flow, run(i))));
    await Promise.all(written);
    expect(client.creates + client.replaces).toBe(1);
    const h = await historyOf('burst');
    expect(stepsOf(h)).toEqual(['s4', 's3', 's2', 's1']);
    expect(h?.status?.total).toBe(5);
    await history.drain();
  });

  it('tries a refused write again with the runs recorded since, losing none', async () => {
    const obj = await owner('refused');
    const client = new CountingClient(kube);
    client.failures = 2;
    const history = new RunHistoryWriter(client, silent, HOUR, 100);
    const first = history.record(obj, flow, run(1));
    await waitFor(() => client.creates + client.replaces >= 1, { what: 'the first, refused, write' });
    const second = history.record(obj, flow, run(2));
    await Promise.all([first, second]);
    const h = await historyOf('refused');
    expect(stepsOf(h)).toEqual(['s2', 's1']);
    expect(h?.status?.total).toBe(2);
    await history.drain();
  });

  it('writes what waits when it stops, without waiting for the timer', async () => {
    const obj = await owner('stopping');
    const history = new RunHistoryWriter(kube, silent, HOUR, HOUR);
    void history.record(obj, flow, run(1));
    expect(await historyOf('stopping')).toBeUndefined();
    await history.drain();
    expect(stepsOf(await historyOf('stopping'))).toEqual(['s1']);
  });

  it('reads the record of an object that ran before instead of having a create refused (a restarted process)', async () => {
    const plain = await owner('restarted');
    const before = new RunHistoryWriter(kube, silent, HOUR, 50);
    await before.record(plain, flow, run(1));
    await before.drain();
    // The object as a restarted process sees it: with the last run the first process wrote on it.
    const lastRun = JSON.stringify({ flow: 'default/f', steps: [] });
    const ran = { ...plain, metadata: { ...plain.metadata, annotations: { [LAST_RUN_ANNOTATION]: lastRun } } };
    const client = new CountingClient(kube);
    const after = new RunHistoryWriter(client, silent, HOUR, 50);
    await after.record(ran, flow, run(2));
    expect({ creates: client.creates, replaces: client.replaces }).toEqual({ creates: 0, replaces: 1 });
    expect(stepsOf(await historyOf('restarted'))).toEqual(['s2', 's1']);
    await after.drain();
  });
});
