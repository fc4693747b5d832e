import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { CommitTracker, type CommitTransition } from '../../src/notify/commit-state.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

const SHA = 'c'.repeat(40);
const REVISION = `main@sha1:${SHA}`;

/** A FlowSource as its controller leaves it after applying REVISION with this inventory. */
const appliedSource = (inventory: Array<Record<string, string>>): KubeObject => ({
  apiVersion: 'flowops.io/v1',
  kind: 'FlowSource',
  metadata: { name: 'ops', namespace: 'default' },
  status: { history: [{ revision: REVISION, outcome: 'Applied', time: '2026-12-01T21:00:00Z' }], inventory },
});

/** The deadline: a commit whose objects are not all Ready by then fails, naming the first one that is not. */
describe('commit tracker deadline', () => {
  let ts: TestServer;
  let kube: KubeClient;

  beforeAll(async () => {
    ts = await startTestServer();
    kube = KubeClient.fromKubeconfig(ts.kubeconfig);
    // No controller runs here: the Deployment never reports a replica.
    await kube.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    } as KubeObject);
    await kube.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'default' },
    } as KubeObject);
  });
  afterAll(async () => {
    await ts?.stop();
  });

  it('reports failure at the deadline, naming the object still not Ready and why', async () => {
    const seen: CommitTransition[] = [];
    const tracker = new CommitTracker({
      kube,
      log: pino({ level: 'silent' }),
      onTransition: (t) => seen.push(t),
      deadlineMs: 500,
      checkEveryMs: 50,
    });
    tracker.start();
    try {
      tracker.onSource(
        appliedSource([
          { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cfg', path: 'cfg.yaml' },
          { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web', path: 'web.yaml' },
        ]),
      );
      const final = await waitFor(() => seen.find((t) => t.state !== 'pending'), { what: 'a final state' });
      expect(seen[0]).toMatchObject({ state: 'pending', sha: SHA, source: 'default/ops' });
      expect(final.state).toBe('failure');
      expect(final.description).toMatch(/^deadline passed; not Ready: Deployment\/default\/web: .*replicas/);
    } finally {
      tracker.stop();
    }
  });

  it('does not report a commit again for a status write that changed nothing it reads', async () => {
    const seen: CommitTransition[] = [];
    const tracker = new CommitTracker({
      kube,
      log: pino({ level: 'silent' }),
      onTransition: (t) => seen.push(t),
      checkEveryMs: 50,
    });
    tracker.start();
    try {
      const src = appliedSource([
        { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cfg', path: 'cfg.yaml' },
      ]);
      tracker.onSource(src);
      await waitFor(() => seen.find((t) => t.state === 'success'), { what: 'success' });
      tracker.onSource({ ...src, metadata: { ...src.metadata, resourceVersion: '999' } });
      expect(seen.map((t) => t.state)).toEqual(['pending', 'success']);
    } finally {
      tracker.stop();
    }
  });
});
