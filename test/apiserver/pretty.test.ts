import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

/** ?pretty and human User-Agents get indented JSON, as from kube-apiserver; clients get it compact. */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

const text = async (path: string, ua = 'node'): Promise<string> =>
  (await fetch(`${ts.server.url}${path}`, { headers: { 'user-agent': ua } })).text();

describe('pretty', () => {
  it('indents an object, a list and an error when asked, and only then', async () => {
    const ns = await text('/api/v1/namespaces/default?pretty=True');
    expect(ns).toMatch(/^\{\n {2}"/);
    expect(ns).toContain('\n    "name": "default",\n');
    expect(JSON.parse(ns)).toMatchObject({ metadata: { name: 'default' } });
    const list = await text('/api/v1/namespaces?pretty=1');
    expect(list).toContain('\n  "items": [\n    {\n');
    const missing = await text('/api/v1/namespaces/nope?pretty=true');
    expect(missing).toContain('\n  "reason": "NotFound",\n');
    for (const q of ['', '?pretty=false', '?pretty=yes', '?pretty'])
      expect(await text(`/api/v1/namespaces/default${q}`)).not.toContain('\n');
  });

  it('for curl without asking, unless told not to', async () => {
    expect(await text('/api/v1/namespaces/default', 'curl/8.5.0')).toContain('\n  "metadata": {\n');
    expect(await text('/api/v1/namespaces/default?pretty=0', 'curl/8.5.0')).not.toContain('\n');
  });
});
