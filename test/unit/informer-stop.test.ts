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
});
