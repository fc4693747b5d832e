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

  /** A Flow reconciles a commit's objects as soon as they are applied, before the FlowSource says so. */
  describe('a stall that comes before the commit is pending', () => {
    const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web', path: 'web.yaml' };
    const stall = (reason = 'ReconcileStalled') => ({
      involved: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
      severity: 'error' as const,
      reason,
      message: 'Flow web-flow: the API server refused the child',
      time: '2026-12-01T21:00:00Z',
    });
    const tracked = (): { tracker: CommitTracker; seen: CommitTransition[] } => {
      const seen: CommitTransition[] = [];
      const tracker = new CommitTracker({
        kube,
        log: pino({ level: 'silent' }),
        onTransition: (t) => seen.push(t),
        checkEveryMs: 50,
      });
      return { tracker, seen };
    };

    it('fails the commit at once, naming the object', () => {
      const { tracker, seen } = tracked();
      tracker.onEvent(stall());
      tracker.onSource(appliedSource([web]));
      expect(seen.map((t) => t.state)).toEqual(['pending', 'failure']);
      expect(seen[1]!.description).toBe(
        'Deployment/default/web stalled: Flow web-flow: the API server refused the child',
      );
      tracker.stop();
    });

    it('is forgotten once a later Event of the object says otherwise', () => {
      const { tracker, seen } = tracked();
      tracker.onEvent(stall());
      tracker.onEvent(stall('Reconciled'));
      tracker.onSource(appliedSource([web]));
      expect(seen.map((t) => t.state)).toEqual(['pending']);
      tracker.stop();
    });

    it('is not taken for the next commit once a commit was seen after it', () => {
      const { tracker, seen } = tracked();
      tracker.onEvent(stall());
      tracker.onSource(appliedSource([]));
      const next = appliedSource([web]);
      const sha = 'd'.repeat(40);
      (next.status as { history: Array<Record<string, string>> }).history = [
        { revision: `main@sha1:${sha}`, outcome: 'Applied', time: '2026-12-01T21:01:00Z' },
      ];
      tracker.onSource(next);
      expect(seen.filter((t) => t.sha === sha).map((t) => t.state)).toEqual(['pending']);
      tracker.stop();
    });
  });
});
