import pino from 'pino';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowCrd } from '../../src/api/crd.js';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject, ObjectRef } from '../../src/kube/types.js';
import { workerFlows } from '../../src/runtime/flow-parts.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

const log = pino({ level: 'silent' });
let ts: TestServer;
let kube: KubeClient;

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  for (const crd of [flowCrd() as unknown as KubeObject, parse(WIDGET_CRD) as KubeObject])
    await kube.apply(crd, { fieldManager: 'test', force: true });
  await kube.create({
    apiVersion: 'flowops.io/v1',
    kind: 'Flow',
    metadata: { name: 'cache', namespace: 'default' },
    spec: {
      watch: { apiVersion: 'example.com/v1', kind: 'Widget' },
      reconcile: {
        steps: [
          {
            name: 'child',
            type: 'kubectl',
            action: 'apply',
            manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: child\n',
          },
        ],
      },
    },
  });
});
afterAll(async () => {
  kube.rest.close();
  await ts.stop();
});

describe("a worker's read cache (registry mode)", () => {
  it('answers a read only with exactly the version the leader enqueued for, and enqueues nothing itself', async () => {
    const added: string[] = [];
    const flows = workerFlows({ kube, log, queue: { add: (k) => void added.push(k) } });
    const manager = flows.cache;
    flows.start();
    try {
      await flows.registry.synced();
      const w = await kube.create({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'default' },
        spec: { size: 1 },
      });
      const ref: ObjectRef = { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'default', name: 'w1' };
      const rv1 = w.metadata.resourceVersion!;
      await waitFor(() => manager.cached(ref, rv1), { what: 'w1 in the worker cache' });
      const w2 = await kube.patch(ref, { spec: { size: 2 } }, 'merge');
      const rv2 = w2.metadata.resourceVersion!;
      // Until the cache has caught up with what the leader saw, the worker must ask the server.
      const lagging = manager.cached(ref, rv2);
      if (lagging) expect(lagging.metadata.resourceVersion).toBe(rv2);
      const fresh = await waitFor(() => manager.cached(ref, rv2), { what: 'the update in the worker cache' });
      expect((fresh.spec as { size: number }).size).toBe(2);
      expect(manager.cached(ref, rv1)).toBeUndefined();
      // A resync (no version) takes whatever the cache holds.
      expect(manager.cached(ref)?.metadata.resourceVersion).toBe(rv2);
      expect(added).toEqual([]);
    } finally {
      await flows.stop();
    }
  });
});
