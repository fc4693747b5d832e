// No stored object and no failing step stops a background loop or the process (issue 20, item 5):
// each loop reports the throw with its name and takes its next pass. A throw is injected through a
// real object where one can cause it (objects stored before validation refused them), else through
// the loop's own seam (its storage).
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { Informer } from '../../src/kube/informer.js';
import { ClusterRoleAggregation } from '../../src/apiserver/auth/rbac/aggregation.js';
import { storageKey, type JsonObject } from '../../src/apiserver/registry/types.js';
import { SharedInformer } from '../../src/simulator/shared-informers.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

interface Fault {
  loop: string;
  message: string;
}

let ts: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await ts?.stop();
  ts = undefined;
});

async function serverHearingFaults(
  opts: Parameters<typeof startTestServer>[0] = {},
): Promise<{ ts: TestServer; faults: Fault[] }> {
  const faults: Fault[] = [];
  const onBackgroundError = (loop: string, err: unknown): void =>
    void faults.push({ loop, message: String((err as Error).message) });
  ts = await startTestServer({ ...opts, onBackgroundError });
  return { ts, faults };
}

async function call(
  t: TestServer,
  method: string,
  path: string,
  body?: object,
  type = 'application/json',
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.server.url}${path}`, {
    method,
    headers: { 'content-type': type },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: await r.json() };
}

/** Writes an object's text straight into storage, past admission: what a data directory from before a check holds. */
function storeRaw(
  t: TestServer,
  group: string,
  version: string,
  plural: string,
  namespace: string | undefined,
  obj: JsonObject,
): void {
  const rt = t.server.registry.lookup(group, version, plural)!;
  const name = String((obj.metadata as JsonObject).name);
  const meta = { uid: `raw-${name}`, creationTimestamp: '2026-01-01T00:00:00Z', ...(obj.metadata as JsonObject) };
  t.server.store.create(storageKey(rt, namespace, name), (rev) =>
    JSON.stringify({ ...obj, metadata: { ...meta, resourceVersion: String(rev) } }),
  );
}

const RBAC = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
const cm = (name: string, more: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...more },
});

describe('a throw in a background loop is reported and the loop goes on', () => {
  it('RBAC aggregation: a stored ClusterRole with operator Sometimes ends nothing; the others aggregate', async () => {
    const { ts: t, faults } = await serverHearingFaults();
    // Hooked as createAuth hooks it (this test server runs without authentication).
    const aggregation = new ClusterRoleAggregation(t.server.registry, t.server.objects);
    t.server.objects.onWrite(aggregation.onWrite, 'clusterrole-aggregation');
    storeRaw(t, 'rbac.authorization.k8s.io', 'v1', 'clusterroles', undefined, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'a-bad-aggregate' },
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'agg', operator: 'Sometimes' }] }] },
    });
    const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }];
    expect(
      (
        await call(t, 'POST', RBAC, {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'piece', labels: { agg: 'yes' } },
          rules,
        })
      ).status,
    ).toBe(201);
    const good = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'z-good-aggregate' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'yes' } }] },
    };
    expect((await call(t, 'POST', RBAC, good)).status).toBe(201);
    await waitFor(async () => (await call(t, 'GET', `${RBAC}/z-good-aggregate`)).body.rules?.length === 1, {
      what: 'the valid aggregate to get its rules',
    });
    expect(faults).toContainEqual({
      loop: 'clusterrole-aggregation',
      message: '"Sometimes" is not a valid label selector operator',
    });
    expect((await fetch(`${t.server.url}/readyz`)).status).toBe(200);
  });

  it('a throwing write listener: the write stands, later listeners run (GC collects)', async () => {
    const { ts: t, faults } = await serverHearingFaults();
    t.server.objects.onWrite((_t, e) => {
      if (e.key.endsWith('/owner')) throw new TypeError('listener bug');
    }, 'test-listener');
    const owner = await call(t, 'POST', '/api/v1/namespaces/default/configmaps', cm('owner'));
    expect(owner.status).toBe(201);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid };
    expect(
      (await call(t, 'POST', '/api/v1/namespaces/default/configmaps', cm('dependent', { ownerReferences: [ref] })))
        .status,
    ).toBe(201);
    expect((await call(t, 'DELETE', '/api/v1/namespaces/default/configmaps/owner')).status).toBe(200);
    await waitFor(
      async () => (await call(t, 'GET', '/api/v1/namespaces/default/configmaps/dependent')).status === 404,
      { what: 'the dependent to be collected' },
    );
    expect(faults.filter((f) => f.loop === 'test-listener').map((f) => f.message)).toEqual([
      'listener bug',
      'listener bug',
    ]);
  });

  it('GC and namespace cleanup: a delete failing in storage is reported; the next are collected', async () => {
    const { ts: t, faults } = await serverHearingFaults();
    const realDelete = t.server.store.delete.bind(t.server.store);
    vi.spyOn(t.server.store, 'delete').mockImplementation((key, rev, value) => {
      if (key.endsWith('/first-dependent') || key.endsWith('/doomed/cm-in-ns'))
        throw new RangeError(`disk said no to ${key}`);
      return realDelete(key, rev, value);
    });
    for (const n of ['first', 'second']) {
      const owner = await call(t, 'POST', '/api/v1/namespaces/default/configmaps', cm(`${n}-owner`));
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `${n}-owner`, uid: owner.body.metadata.uid };
      expect(
        (
          await call(
            t,
            'POST',
            '/api/v1/namespaces/default/configmaps',
            cm(`${n}-dependent`, { ownerReferences: [ref] }),
          )
        ).status,
      ).toBe(201);
      expect((await call(t, 'DELETE', `/api/v1/namespaces/default/configmaps/${n}-owner`)).status).toBe(200);
    }
    await waitFor(
      async () => (await call(t, 'GET', '/api/v1/namespaces/default/configmaps/second-dependent')).status === 404,
      { what: 'the second dependent to be collected' },
    );
    expect(faults).toContainEqual({
      loop: 'garbage-collector',
      message: 'disk said no to /registry/core/configmaps/default/first-dependent',
    });

    expect(
      (
        await call(t, 'POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'doomed' },
        })
      ).status,
    ).toBe(201);
    expect((await call(t, 'POST', '/api/v1/namespaces/doomed/configmaps', cm('cm-in-ns'))).status).toBe(201);
    expect(
      (
        await call(t, 'POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'emptied' },
        })
      ).status,
    ).toBe(201);
    expect((await call(t, 'POST', '/api/v1/namespaces/emptied/configmaps', cm('cm-in-ns'))).status).toBe(201);
    expect((await call(t, 'DELETE', '/api/v1/namespaces/doomed')).status).toBe(200);
    expect((await call(t, 'DELETE', '/api/v1/namespaces/emptied')).status).toBe(200);
    await waitFor(async () => (await call(t, 'GET', '/api/v1/namespaces/emptied')).status === 404, {
      what: 'the other namespace to be emptied and removed',
    });
    expect(faults).toContainEqual({
      loop: 'garbage-collector',
      message: 'disk said no to /registry/core/configmaps/doomed/cm-in-ns',
    });
  });

  it('event expiry: an Event whose delete fails is reported; the Events after it still expire', async () => {
    const { ts: t, faults } = await serverHearingFaults({ eventTtlMs: 500 });
    const realDelete = t.server.store.delete.bind(t.server.store);
    vi.spyOn(t.server.store, 'delete').mockImplementation((key, rev, value) => {
      if (key.endsWith('/stuck')) throw new RangeError('disk said no');
      return realDelete(key, rev, value);
    });
    const event = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'default' },
      reason: 'R',
      message: 'm',
      type: 'Normal',
    });
    for (const n of ['stuck', 'goes'])
      expect((await call(t, 'POST', '/api/v1/namespaces/default/events', event(n))).status).toBe(201);
    await waitFor(async () => (await call(t, 'GET', '/api/v1/namespaces/default/events/goes')).status === 404, {
      what: 'the second Event to expire',
    });
    expect(faults).toContainEqual({ loop: 'event-expiry', message: 'disk said no' });
  });

  it('compaction: a failed pass is reported and the next one compacts', async () => {
    const { ts: t, faults } = await serverHearingFaults({ compactIntervalMs: 50, compactRetain: 1 });
    const realCompact = t.server.store.compact.bind(t.server.store);
    let calls = 0;
    vi.spyOn(t.server.store, 'compact').mockImplementation((rev) => {
      if (++calls === 1) throw new RangeError('disk said no');
      realCompact(rev);
    });
    for (const n of ['a', 'b', 'c'])
      expect((await call(t, 'POST', '/api/v1/namespaces/default/configmaps', cm(n))).status).toBe(201);
    await waitFor(() => t.server.store.compactRevision() > 0, { what: 'a later pass to compact' });
    expect(faults).toContainEqual({ loop: 'compactor', message: 'disk said no' });
  });

  it('CRD controller: a stored CRD it cannot read is reported at start; the server starts', async () => {
    const { ts: t, faults } = await serverHearingFaults();
    // A row cut short (what a torn write or a bad copy of the data directory leaves).
    const crds = t.server.registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
    t.server.store.create(
      storageKey(crds, undefined, 'broken.example.com'),
      () => '{"apiVersion":"apiextensions.k8s.io/v1","kind":"Custom',
    );
    const dataDir = t.dir;
    await t.server.close();
    const { startApiServer } = await import('../../src/apiserver/index.js');
    const again = await startApiServer({
      port: 0,
      dataDir: `${dataDir}/data`,
      onBackgroundError: (loop, err) => void faults.push({ loop, message: String((err as Error).message) }),
    });
    ts = { ...t, server: again };
    expect(faults.map((f) => f.loop)).toContain('crd-controller');
    expect((await call(ts, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
  });
});

describe('informers: a handler that throws is logged and the watch goes on', () => {
  function capturedLog(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    return { log: pino({ level: 'error' }, sink), lines };
  }

  it('kube Informer and the simulator SharedInformer: the next objects still arrive, to every listener', async () => {
    ts = await startTestServer();
    const kube = KubeClient.fromKubeconfig(ts.kubeconfig);
    const { log, lines } = capturedLog();
    const seen: string[] = [];
    const informer = new Informer(
      kube,
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', log },
      {
        add: (o) => {
          if (o.metadata.name === 'boom') throw new TypeError('handler bug');
          seen.push(o.metadata.name!);
        },
        update: () => {},
        delete: () => {},
      },
    );
    const shared = new SharedInformer(kube, { apiVersion: 'v1', kind: 'Secret' }, log);
    const sharedSeen: string[] = [];
    shared.addListener({
      changed: (o) =>
        void (o.metadata.name === 'boom'
          ? (() => {
              throw new TypeError('controller bug');
            })()
          : undefined),
    });
    shared.addListener({ changed: (o) => void sharedSeen.push(o.metadata.name!) });
    informer.start();
    await shared.start();
    try {
      for (const n of ['boom', 'after']) {
        expect((await call(ts, 'POST', '/api/v1/namespaces/default/configmaps', cm(n))).status).toBe(201);
        expect(
          (
            await call(ts, 'POST', '/api/v1/namespaces/default/secrets', {
              apiVersion: 'v1',
              kind: 'Secret',
              metadata: { name: n },
            })
          ).status,
        ).toBe(201);
      }
      await waitFor(() => seen.includes('after') && sharedSeen.includes('after'), {
        what: 'the objects after the bad one',
      });
      expect(sharedSeen).toContain('boom');
      expect(lines.map((l) => l.loop)).toEqual(expect.arrayContaining(['ConfigMap informer', 'Secret informer']));
    } finally {
      await informer.stop();
      await shared.stop();
    }
  });
});
