import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { lastJsonLine, pythonClients, runPythonScript } from '../helpers/python.js';

/**
 * The official Kubernetes Python client. Up to about v30 it sends booleans as Python prints them
 * (`watch=True`, `force=True`); newer ones send `true`. Every version found is run.
 */
const clients = pythonClients();
if (!clients.length) console.log('python-client: skipped, no python3 with the "kubernetes" package (.ci/run installs it)');

interface Seen {
  initial: { type: string; name: string } | null;
  resumed: { type: string; name: string } | null;
  unforced: number;
  forced: { data: Record<string, string>; managers: string[] };
}

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

function createNamespace(name: string): void {
  const nsType = ts.server.registry.lookup('', 'v1', 'namespaces')!;
  ts.server.objects.create(nsType, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

describe.each(clients.map((c) => [c.version, c] as const))('the official Python client %s against the embedded API server', (version, client) => {
  const ns = `py-${version.replace(/\W/g, '-')}`;
  beforeAll(() => createNamespace(ns));

  it('watches (Watch().stream) and force-applies through the dynamic client (force_conflicts=True)', async () => {
    const r = await runPythonScript(client, 'watch_and_force_apply.py', { KUBECONFIG: ts.kubeconfig, TEST_NAMESPACE: ns });
    const seen = lastJsonLine<Seen>(r);
    expect(r.code, r.stderr).toBe(0);
    expect(seen.initial).toEqual({ type: 'ADDED', name: 'existing' });
    expect(seen.resumed).toEqual({ type: 'ADDED', name: 'later' });
    expect(seen.unforced).toBe(409);
    expect(seen.forced.data).toEqual({ k: 'bob' });
    expect(seen.forced.managers).toEqual(['bob']);
  });
});

describe('the boolean spellings older Python clients put on the wire', () => {
  beforeAll(() => createNamespace('wire'));

  it('watch=True is a watch, watch=False a list', async () => {
    const base = `${ts.server.url}/api/v1/namespaces/wire/configmaps`;
    const list = await fetch(`${base}?watch=False`);
    expect(((await list.json()) as { kind: string }).kind).toBe('ConfigMapList');
    const ac = new AbortController();
    const watch = await fetch(`${base}?watch=True&timeoutSeconds=5`, { signal: ac.signal });
    expect(watch.headers.get('transfer-encoding')).toBe('chunked');
    await fetch(base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'w' } }) });
    const reader = watch.body!.getReader();
    const { value } = await reader.read();
    ac.abort();
    expect(JSON.parse(Buffer.from(value!).toString('utf8').split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w' } } });
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
