import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { Informer } from '../../src/kube/informer.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

describe('Informer.stop', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('returns at once when it comes between the list and the watch (it used to wait for the watch timeout)', async () => {
    const kube = KubeClient.fromKubeconfig(server.kubeconfig);
    let stopped: Promise<void> | undefined;
    const informer: Informer = new Informer(
      kube,
      { apiVersion: 'v1', kind: 'ConfigMap', log: pino({ level: 'silent' }) },
      {
        add: () => {},
        update: () => {},
        delete: () => {},
        // The moment after the first list and before the watch is opened: what a SIGTERM during
        // startup hits (`flowops up` then hung for minutes).
        synced: () => {
          stopped = informer.stop();
        },
      },
    );
    informer.start();
    const t0 = Date.now();
    await waitFor(() => stopped !== undefined, { what: 'the first list' });
    const outcome = await Promise.race([
      stopped!.then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('still waiting'), 5_000)),
    ]);
    expect(outcome).toBe('stopped');
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('reports neither the objects nor synced of a list that returns after stop() (a replaced watch was judged on them)', async () => {
    const kube = KubeClient.fromKubeconfig(server.kubeconfig);
    await kube.apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed-late', namespace: 'default' } },
      { fieldManager: 'test' },
    );
    // The real server answers the list; only its return to the informer waits for the gate, as a
    // loaded server's slow answer would.
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let listing = false;
    const list = kube.list.bind(kube);
    kube.list = async (...args: Parameters<typeof list>) => {
      const answer = await list(...args);
      listing = true;
      await gate;
      return answer;
    };
    const seen: string[] = [];
    const informer = new Informer(
      kube,
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', log: pino({ level: 'silent' }) },
      {
        add: (o) => seen.push(`add ${o.metadata.name}`),
        update: () => {},
        delete: () => {},
        synced: () => seen.push('synced'),
      },
    );
    informer.start();
    await waitFor(() => listing, { what: 'the list to be answered' });
    const stopped = informer.stop();
    release();
    await stopped;
    expect(seen).toEqual([]);
    expect(informer.list()).toEqual([]);
  });
});
