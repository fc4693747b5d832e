import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { lastJsonLine, pythonClients, runPythonScript } from '../helpers/python.js';

/**
 * The official Kubernetes Python client. Up to about v30 it sends booleans as Python prints them
 * (`watch=True`, `force=True`); newer ones send `true`. Every version found is run.
 */
const clients = pythonClients();
if (!clients.length)
  console.log('python-client: skipped, no python3 with the "kubernetes" package (.ci/run installs it)');

interface Seen {
  initial: { type: string; name: string } | null;
  resumed: { type: string; name: string } | null;
  unforced: number;
  forced: { data: Record<string, string>; managers: string[] };
}

let ts: TestServer;
beforeAll(async () => {
  // Bookmarks often enough for a test to see one.
  ts = await startTestServer({ watch: { bookmarkIntervalMs: 100 } });
});
afterAll(async () => ts?.stop());

function createNamespace(name: string): void {
  const nsType = ts.server.registry.lookup('', 'v1', 'namespaces')!;
  ts.server.objects.create(nsType, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

describe.each(clients.map((c) => [c.version, c] as const))(
  'the official Python client %s against the embedded API server',
  (version, client) => {
    const ns = `py-${version.replace(/\W/g, '-')}`;
    beforeAll(() => createNamespace(ns));

    it('watches (Watch().stream) and force-applies through the dynamic client (force_conflicts=True)', async () => {
      const r = await runPythonScript(client, 'watch_and_force_apply.py', {
        KUBECONFIG: ts.kubeconfig,
        TEST_NAMESPACE: ns,
      });
      const seen = lastJsonLine<Seen>(r);
      expect(r.code, r.stderr).toBe(0);
      expect(seen.initial).toEqual({ type: 'ADDED', name: 'existing' });
      expect(seen.resumed).toEqual({ type: 'ADDED', name: 'later' });
      expect(seen.unforced).toBe(409);
      expect(seen.forced.data).toEqual({ k: 'bob' });
      expect(seen.forced.managers).toEqual(['bob']);
    });
  },
);

describe('the boolean spellings older Python clients put on the wire', () => {
  beforeAll(() => createNamespace('wire'));

  it('watch=True is a watch, watch=False a list', async () => {
    const base = `${ts.server.url}/api/v1/namespaces/wire/configmaps`;
    const list = await fetch(`${base}?watch=False`);
    expect(((await list.json()) as { kind: string }).kind).toBe('ConfigMapList');
    const ac = new AbortController();
    const watch = await fetch(`${base}?watch=True&timeoutSeconds=5`, { signal: ac.signal });
    expect(watch.headers.get('transfer-encoding')).toBe('chunked');
    await fetch(base, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'w' } }),
    });
    const reader = watch.body!.getReader();
    const { value } = await reader.read();
    ac.abort();
    expect(JSON.parse(Buffer.from(value!).toString('utf8').split('\n')[0]!)).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'w' } },
    });
  });

  it('sendInitialEvents=True and allowWatchBookmarks=True', async () => {
    const base = `${ts.server.url}/api/v1/namespaces/wire/configmaps`;
    await fetch(base, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'initial' } }),
    });
    const events = await watchUntil(
      `${base}?watch=True&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=True&timeoutSeconds=10`,
      (seen) => seen.filter((e) => e.type === 'BOOKMARK').length >= 2,
    );
    expect(events.find((e) => e.type === 'ADDED')?.object.metadata.name).toBe('initial');
    const bookmarks = events.filter((e) => e.type === 'BOOKMARK');
    expect(bookmarks[0]!.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    // The second is a periodic one, there only because allowWatchBookmarks=True was read as true.
    expect(bookmarks[1]!.object.metadata.annotations).toBeUndefined();
  });

  it('force=True takes a field another manager owns', async () => {
    const url = `${ts.server.url}/api/v1/namespaces/wire/configmaps/owned`;
    const apply = (manager: string, force: string, value: string) =>
      fetch(`${url}?fieldManager=${manager}${force ? `&force=${force}` : ''}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/apply-patch+yaml' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned' }, data: { k: value } }),
      });
    expect((await apply('alice', '', 'a')).status).toBe(201);
    expect((await apply('bob', 'False', 'b')).status).toBe(409);
    const forced = await apply('bob', 'True', 'b');
    expect(forced.status).toBe(200);
    expect(((await forced.json()) as { data: Record<string, string> }).data).toEqual({ k: 'b' });
  });
});

interface WatchEvent {
  type: string;
  object: { metadata: { name?: string; annotations?: Record<string, string> } };
}

/** Reads a watch's events until `done` says so or 10 s pass (then fails), and closes it. */
async function watchUntil(url: string, done: (seen: WatchEvent[]) => boolean): Promise<WatchEvent[]> {
  const ac = new AbortController();
  const deadline = setTimeout(() => ac.abort(), 10_000);
  const seen: WatchEvent[] = [];
  try {
    const res = await fetch(url, { signal: ac.signal });
    const reader = res.body!.getReader();
    let buffered = '';
    while (!done(seen)) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`watch ended after ${seen.length} events`);
      buffered += Buffer.from(value).toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line) seen.push(JSON.parse(line) as WatchEvent);
    }
    return seen;
  } finally {
    clearTimeout(deadline);
    ac.abort();
  }
}
