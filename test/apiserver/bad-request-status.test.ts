// Bad requests answered with the Status kube-apiserver v1.34.4 gives (bodies copied from one
// started with scripts/control-plane/up.sh).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

const get = async (path: string): Promise<{ status: number; body: any }> => {
  const r = await fetch(`${ts.server.url}${path}`);
  return { status: r.status, body: await r.json() };
};

const status = (code: number, reason: string | undefined, message: string, details?: object) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  ...(reason ? { reason } : {}),
  ...(details ? { details } : {}),
  code,
});

describe('bad requests answer as kube-apiserver does', () => {
  it('a body over 3 MiB is 413 RequestEntityTooLarge', async () => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big' },
      data: { a: 'x'.repeat(4 * 1024 * 1024) },
    });
    const r = await fetch(`${ts.server.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual(status(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'));
  });

  it('resourceVersion=abc is a 400 on a list and on a watch alike', async () => {
    const message =
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax';
    for (const path of [
      '/api/v1/namespaces/default/configmaps?resourceVersion=abc',
      '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=abc',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.body).toEqual(status(400, 'BadRequest', message));
    }
    const huge = await get('/api/v1/configmaps?resourceVersion=99999999999999999999');
    expect(huge.body.message).toContain('value out of range');
  });

  it('a list at a resourceVersion not reached yet waits, then is a 504 with a retry hint', async () => {
    const current = Number((await get('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion);
    const future = current + 1_000_000;
    const matches = ['', '&resourceVersionMatch=Exact', '&resourceVersionMatch=NotOlderThan'];
    const answers = await Promise.all(
      matches.map((m) => get(`/api/v1/namespaces/default/configmaps?resourceVersion=${future}${m}`)),
    );
    for (const r of answers) {
      expect(r.status).toBe(504);
      expect(r.body).toEqual(
        status(504, 'Timeout', `Timeout: Too large resource version: ${future}, current: ${current}`, {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        }),
      );
    }
  });

  it('a list waiting for a resourceVersion answers once a write reaches it', async () => {
    const current = Number((await get('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion);
    const pending = get(`/api/v1/namespaces/default/configmaps?resourceVersion=${current + 1}`);
    const created = await fetch(`${ts.server.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reaches-it' } }),
    });
    expect(created.status).toBe(201);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => i.metadata.name)).toContain('reaches-it');
  });

  it('a watch from a resourceVersion in the future stays open, as on kube-apiserver v1.34.4, and sends what reaches it', async () => {
    const current = Number((await get('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion);
    const lines: string[] = [];
    const ended = new Promise<number | undefined>((resolve) => {
      const req = request(
        `${ts.server.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${current + 1}&timeoutSeconds=30`,
        (res) => {
          res.on('data', (d: Buffer) => {
            lines.push(...d.toString().split('\n').filter(Boolean));
            if (lines.length >= 1) req.destroy();
          });
          res.on('close', () => resolve(res.statusCode));
        },
      );
      req.on('error', () => resolve(undefined));
      req.end();
    });
    // The first write after the start is revision current+1, which the watch must not send;
    // the second one it must.
    for (const name of ['future-1', 'future-2']) {
      await fetch(`${ts.server.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }),
      });
    }
    expect(await ended).toBe(200);
    expect(JSON.parse(lines[0]!).object.metadata.name).toBe('future-2');
  });
});
