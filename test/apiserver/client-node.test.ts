import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';
import { parse } from 'yaml';
import { WIDGET_CRD } from '../fixtures/widgets.js';

let ts: TestServer;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  ts = await startTestServer();
  kc = new k8s.KubeConfig();
  kc.loadFromFile(ts.kubeconfig);
  const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
  await objects.create(parse(WIDGET_CRD) as k8s.KubernetesObject);
  await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: 'inf' } } });
});
afterAll(async () => ts?.stop());

const widget = (name: string, size: number) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'inf' },
  spec: { size },
});

describe('@kubernetes/client-node against the embedded API server', () => {
  it('drives an informer through add, update and delete, and relists after a 410', async () => {
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const path = '/apis/example.com/v1/namespaces/inf/widgets';
    const informer = k8s.makeInformer<k8s.KubernetesObject & { spec?: { size: number } }>(
      kc,
      path,
      () =>
        custom.listNamespacedCustomObject({
          group: 'example.com',
          version: 'v1',
          namespace: 'inf',
          plural: 'widgets',
        }) as never,
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add:${o.metadata!.name}`));
    informer.on('update', (o) => seen.push(`update:${o.metadata!.name}:${o.spec!.size}`));
    informer.on('delete', (o) => seen.push(`delete:${o.metadata!.name}`));
    informer.on('error', () => undefined);
    await informer.start();
    try {
      await custom.createNamespacedCustomObject({
        group: 'example.com',
        version: 'v1',
        namespace: 'inf',
        plural: 'widgets',
        body: widget('a', 1),
      });
      await waitFor(() => seen.includes('add:a'), { what: 'add event' });
      await custom.patchNamespacedCustomObject(
        {
          group: 'example.com',
          version: 'v1',
          namespace: 'inf',
          plural: 'widgets',
          name: 'a',
          body: { spec: { size: 2 } },
        },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      await waitFor(() => seen.includes('update:a:2'), { what: 'update event' });
      await custom.deleteNamespacedCustomObject({
        group: 'example.com',
        version: 'v1',
        namespace: 'inf',
        plural: 'widgets',
        name: 'a',
      });
      await waitFor(() => seen.includes('delete:a'), { what: 'delete event' });

      // Out of the informer's sight: end its watch, then, before it can reconnect (same turn of the
      // event loop), create and delete objects and compact history past its resourceVersion.
      await custom.createNamespacedCustomObject({
        group: 'example.com',
        version: 'v1',
        namespace: 'inf',
        plural: 'widgets',
        body: widget('b', 1),
      });
      await waitFor(() => seen.includes('add:b'), { what: 'add b' });
      const { objects, store, registry } = ts.server;
      const widgets = registry.lookup('example.com', 'v1', 'widgets')!;
      store.endWatches();
      objects.delete(widgets, 'inf', 'b');
      objects.create(widgets, 'inf', widget('c', 5));
      store.compact(store.currentRevision());
      // The reconnect from the old resourceVersion gets ERROR 410; client-node relists and diffs.
      await waitFor(() => seen.includes('delete:b') && seen.includes('add:c'), {
        what: 'relist after 410',
        timeoutMs: 20_000,
      });
      expect(informer.list().map((o) => o.metadata!.name)).toEqual(['c']);
    } finally {
      await informer.stop();
    }
  });

  it('rejects a Lease update carrying a stale resourceVersion with 409', async () => {
    const coord = kc.makeApiClient(k8s.CoordinationV1Api);
    const created = await coord.createNamespacedLease({
      namespace: 'default',
      body: {
        metadata: { name: 'leader' },
        spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: new k8s.V1MicroTime() },
      },
    });
    const stale = created.metadata!.resourceVersion!;
    const renewed = await coord.replaceNamespacedLease({
      name: 'leader',
      namespace: 'default',
      body: { ...created, spec: { ...created.spec, holderIdentity: 'a', renewTime: new k8s.V1MicroTime() } },
    });
    expect(renewed.metadata!.resourceVersion).not.toBe(stale);
    const err = await coord
      .replaceNamespacedLease({
        name: 'leader',
        namespace: 'default',
        body: { ...created, spec: { ...created.spec, holderIdentity: 'b' } },
      })
      .then(
        () => undefined,
        (e: unknown) => e as k8s.ApiException<string>,
      );
    expect(err?.code).toBe(409);
    expect(JSON.parse(err!.body).reason).toBe('Conflict');
    const now = await coord.readNamespacedLease({ name: 'leader', namespace: 'default' });
    expect(now.spec!.holderIdentity).toBe('a');
  });

  it('answers unknown objects with a NotFound Status and lists with a watchable resourceVersion', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const err = await core.readNamespacedConfigMap({ name: 'nope', namespace: 'default' }).then(
      () => undefined,
      (e: unknown) => e as k8s.ApiException<string>,
    );
    expect(err?.code).toBe(404);
    expect(JSON.parse(err!.body)).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'configmaps "nope" not found',
      details: { name: 'nope', kind: 'configmaps' },
    });
    const list = await core.listNamespace();
    expect(list.items.map((n) => n.metadata!.name)).toEqual(expect.arrayContaining(['default', 'kube-system', 'inf']));
    expect(Number(list.metadata!.resourceVersion)).toBe(ts.server.store.currentRevision());
  });
});
