import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ watch: { bookmarkIntervalMs: 100 } });
});
afterAll(async () => ts?.stop());

interface Stream {
  events: Array<{ type: string; object: any }>;
  ended: Promise<void>;
  close(): void;
}

function openWatch(path: string): Stream {
  const events: Stream['events'] = [];
  let buf = '';
  let req: ReturnType<typeof request>;
  // Resolves when the server ends the stream, or when the test closes it.
  const ended = new Promise<void>((resolve) => {
    req = request(`${ts.server.url}${path}`, (res) => {
      expect(res.statusCode).toBe(200);
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buf.slice(0, i)));
          buf = buf.slice(i + 1);
        }
      });
      res.on('end', resolve);
      res.on('error', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
  return { events, ended, close: () => req.destroy() };
}

const post = (name: string, labels: Record<string, string> = {}) =>
  fetch(`${ts.server.url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } }),
  }).then((r) => r.json() as Promise<any>);

const patch = (name: string, body: object) =>
  fetch(`${ts.server.url}/api/v1/namespaces/default/configmaps/${name}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<any>);

describe('watch over HTTP', () => {
  it('sends one write to several watches, each its own event type (one frame per type and encoding)', async () => {
    const at = (await post('shared-0')).metadata.resourceVersion;
    const from = `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${at}`;
    const plain = [openWatch(from), openWatch(from)];
    const selected = openWatch(`${from}&labelSelector=team%3Dx`);
    const all = [...plain, selected];
    // Each watch replays from `at`, so a write made before its request arrives still reaches it.
    await post('shared-1', { team: 'x' });
    await patch('shared-1', { metadata: { labels: { team: 'y' } } });
    const last = await patch('shared-1', { data: { k: 'v' } });
    const arrived = (): boolean => plain.every((w) => w.events.length >= 3) && selected.events.length >= 2;
    await waitFor(arrived, { what: 'the events' });
    const seen = (w: Stream) =>
      w.events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]);
    const rv = Number(at);
    for (const w of plain) {
      expect(seen(w)).toEqual([
        ['ADDED', 'shared-1', String(rv + 1)],
        ['MODIFIED', 'shared-1', String(rv + 2)],
        ['MODIFIED', 'shared-1', last.metadata.resourceVersion],
      ]);
    }
    expect(seen(selected)).toEqual([
      ['ADDED', 'shared-1', String(rv + 1)],
      ['DELETED', 'shared-1', String(rv + 2)],
    ]);
    for (const w of all) w.close();
  });

  it('replays from a resourceVersion, then streams; selector transitions become ADDED/DELETED', async () => {
    const first = await post('w-a', { team: 'x' });
    await patch('w-a', { data: { k: 'v' } });
    const w = openWatch(
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${first.metadata.resourceVersion}&labelSelector=team%3Dx`,
    );
    await waitFor(() => w.events.length === 1);
    expect(w.events[0]!.type).toBe('MODIFIED');
    await patch('w-a', { metadata: { labels: { team: 'y' } } });
    await waitFor(() => w.events.length === 2);
    expect(w.events[1]!.type).toBe('DELETED');
    await patch('w-a', { metadata: { labels: { team: 'x' } } });
    await waitFor(() => w.events.length === 3);
    expect(w.events[2]!.type).toBe('ADDED');
    w.close();
  });

  it('sends synthetic ADDED events for resourceVersion=0 and ends at timeoutSeconds', async () => {
    await post('w-b');
    const w = openWatch(
      '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dw-b',
    );
    await w.ended;
    expect(w.events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'w-b']]);
  });

  it('answers a watch from a compacted revision with 200 and one ERROR 410 event', async () => {
    await post('w-c');
    ts.server.store.compact(ts.server.store.currentRevision());
    const w = openWatch('/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1');
    await w.ended;
    expect(w.events).toHaveLength(1);
    expect(w.events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });

  it('sends bookmarks when allowed and the initial-events-end bookmark for WatchList', async () => {
    await post('w-d');
    const w = openWatch(
      '/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dw-d',
    );
    await waitFor(() => w.events.filter((e) => e.type === 'BOOKMARK').length >= 2, { what: 'bookmarks' });
    expect(w.events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w-d' } } });
    expect(w.events[1]).toMatchObject({
      type: 'BOOKMARK',
      object: { kind: 'ConfigMap', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
    });
    w.close();
  });

  it('pages a list with limit and continue at one consistent revision', async () => {
    for (const n of ['p1', 'p2', 'p3']) await post(n, { page: 'yes' });
    const get = (q: string) =>
      fetch(`${ts.server.url}/api/v1/namespaces/default/configmaps?labelSelector=page%3Dyes&${q}`).then(
        (r) => r.json() as Promise<any>,
      );
    const one = await get('limit=2');
    expect(one.items.map((i: any) => i.metadata.name)).toEqual(['p1', 'p2']);
    expect(one.metadata.continue).toBeTruthy();
    await post('p4', { page: 'yes' });
    const two = await get(`limit=2&continue=${one.metadata.continue}`);
    expect(two.items.map((i: any) => i.metadata.name)).toEqual(['p3']);
    expect(two.metadata.resourceVersion).toBe(one.metadata.resourceVersion);
  });
});

describe('writes into a namespace that does not exist', () => {
  it('are answered 404 for create and for a server-side apply that would create', async () => {
    const create = await fetch(`${ts.server.url}/api/v1/namespaces/nowhere/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
    });
    expect(create.status).toBe(404);
    const apply = await fetch(`${ts.server.url}/api/v1/namespaces/nowhere/configmaps/x?fieldManager=t`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
    });
    expect(apply.status).toBe(404);
    expect(((await apply.json()) as { message: string }).message).toBe('namespaces "nowhere" not found');
  });
});
