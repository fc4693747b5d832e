// http executor against a local node:http server; Secrets from the embedded API server.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpStepSchema, type HttpStep } from '../../src/api/flow.js';
import { httpExecutor } from '../../src/executors/http.js';
import { StepError } from '../../src/executors/types.js';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { capturingLogger, failure, makeContext } from './context.js';

const SECRET = 'tok-7f3a9c-very-secret';

interface Seen {
  method: string;
  url: string;
  host: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let ts: TestServer;
let kube: KubeClient;
let owner: KubeObject;
let http: Server;
let base: string;
let port: number;
let seen: Seen[] = [];

function startHttp(): Promise<void> {
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host ?? '',
        headers: req.headers,
        body,
      };
      seen.push(entry);
      const path = (req.url ?? '').split('?')[0];
      if (path === '/slow') return; // never answers
      if (path === '/fail') {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'backend down', echo: req.headers['x-api-key'] ?? null }));
      }
      if (path === '/redirect-same') {
        res.writeHead(302, { location: '/echo' });
        return res.end();
      }
      if (path === '/redirect-cross') {
        res.writeHead(307, { location: `http://localhost:${port}/echo` });
        return res.end();
      }
      if (path === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('plain words');
      }
      if (path === '/items' && req.method === 'POST') {
        res.writeHead(201, { 'content-type': 'application/json', 'X-Request-Id': 'r-1' });
        return res.end(
          JSON.stringify({ id: 'item-42', received: JSON.parse(body || 'null'), nested: { ids: [1, 2] } }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () => {
      port = (http.address() as AddressInfo).port;
      base = `http://127.0.0.1:${port}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  await kube.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'api-creds', namespace: 'team-a' },
    data: { token: Buffer.from(`${SECRET}\n`).toString('base64') },
  });
  owner = await kube.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'shop', namespace: 'team-a' },
    data: { replicas: '3', path: 'items' },
  });
  await startHttp();
});
afterAll(async () => {
  http?.closeAllConnections();
  http?.close();
  await ts?.stop();
});
beforeEach(() => {
  seen = [];
});

const step = (s: Record<string, unknown>): HttpStep => httpStepSchema.parse({ name: 'call', type: 'http', ...s });
const run = (s: Record<string, unknown>, extra: Partial<Parameters<typeof makeContext>[0]> = {}) =>
  httpExecutor.run(step(s), makeContext({ kube, resource: owner, ...extra }));
const withData = (data: Record<string, string>): KubeObject => ({
  ...owner,
  data: { ...(owner.data as Record<string, string>), ...data },
});

describe('http: requests and outputs', () => {
  it('GET: status, lower-case headers, parsed JSON body and its top-level fields', async () => {
    const { outputs } = await run({
      url: `${base}/echo?q={{ .Resource.data.replicas }}`,
      headers: { 'X-Replicas': '{{ .Resource.data.replicas }}' },
    });
    expect(outputs.status).toBe(200);
    expect((outputs.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(outputs.body).toMatchObject({ method: 'GET', url: '/echo?q=3' });
    expect(outputs.method).toBe('GET');
    expect(seen[0]?.headers['x-replicas']).toBe('3');
  });

  it('POST by default with an object body: string leaves rendered with their types, sent as JSON', async () => {
    const { outputs } = await run({
      url: `${base}/{{ .Resource.data.path }}`,
      body: {
        name: '{{ .Resource.metadata.name }}',
        replicas: '{{ .Resource.data.replicas | atoi }}',
        tags: ['a-{{ .Resource.metadata.namespace }}'],
      },
      outputs: { id: '.id', second: '.nested.ids[1]' },
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/items' });
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: 'shop', replicas: 3, tags: ['a-team-a'] });
    expect(outputs).toMatchObject({ status: 201, id: 'item-42', second: 2 });
    // With explicit outputs the top-level body fields are not spread.
    expect(outputs.received).toBeUndefined();
  });

  it('a JSON string body cannot gain fields from a value; other strings are text', async () => {
    const evil = 'x", "admin": true, "y": "';
    await run(
      { url: `${base}/items`, body: '{"name": "{{ .Resource.data.name }}"}' },
      { resource: withData({ name: evil }) },
    );
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: evil });
    await run({ url: `${base}/echo`, method: 'PUT', body: 'hello {{ .Resource.metadata.name }}' });
    expect(seen[1]).toMatchObject({ method: 'PUT', body: 'hello shop' });
    expect(seen[1]?.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('non-JSON responses come back as text', async () => {
    const { outputs } = await run({ url: `${base}/text` });
    expect(outputs.body).toBe('plain words');
  });

  it('status >= 400 is an HTTPError with the status code, the url without query, and a body excerpt', async () => {
    const err = await failure(() => run({ url: `${base}/fail?token=abc`, method: 'POST', body: { a: 1 } }));
    expect(err).toBeInstanceOf(StepError);
    expect(err).toMatchObject({ statusCode: 503, reason: 'HTTPError' });
    expect(err.message).toBe(`POST ${base}/fail: 503 Service Unavailable: {"error":"backend down","echo":null}`);
  });

  it('a connection failure is HTTPRequestFailed; the signal ends a slow request as Timeout', async () => {
    const closed = await failure(() => run({ url: 'http://127.0.0.1:1/x' }));
    expect(closed).toMatchObject({ reason: 'HTTPRequestFailed' });
    const slow = await failure(() => run({ url: `${base}/slow` }, { signal: AbortSignal.timeout(200) }));
    expect(slow).toMatchObject({ reason: 'Timeout' });
    expect(slow.message).toContain('timed out');
  });
});

describe('http: secrets', () => {
  const secretHeader = { 'X-Api-Key': { secretKeyRef: { name: 'api-creds', key: 'token' } } };

  it('reads a header from a Secret, sends it, and never shows it in outputs, errors or logs', async () => {
    const cap = capturingLogger();
    const { outputs } = await run({ url: `${base}/echo`, headers: secretHeader }, { log: cap.log });
    expect(seen[0]?.headers['x-api-key']).toBe(SECRET);
    expect(JSON.stringify(outputs)).not.toContain(SECRET);
    expect(JSON.stringify(outputs)).toContain('***');

    const err = await failure(() => run({ url: `${base}/fail`, headers: secretHeader }, { log: cap.log }));
    expect(err).toMatchObject({ statusCode: 503 });
    expect(err.message).not.toContain(SECRET);
    expect(err.message).toContain('"echo":"***"');
    expect(cap.text()).toContain('http request');
    expect(cap.text()).not.toContain(SECRET);
  });

  it('follows same-origin redirects with the secret and drops it on a cross-origin hop', async () => {
    await run({ url: `${base}/redirect-same`, headers: secretHeader });
    expect(seen.map((s) => s.url)).toEqual(['/redirect-same', '/echo']);
    expect(seen[1]?.headers['x-api-key']).toBe(SECRET);
    seen = [];
    await run({ url: `${base}/redirect-cross`, headers: { ...secretHeader, Authorization: 'Bearer plain' } });
    expect(seen.map((s) => s.host)).toEqual([`127.0.0.1:${port}`, `localhost:${port}`]);
    expect(seen[1]?.headers['x-api-key']).toBeUndefined();
    expect(seen[1]?.headers.authorization).toBeUndefined();
  });

  it('a missing Secret is 404 NotFound; a missing key is SecretKeyNotFound', async () => {
    await expect(
      run({ url: `${base}/echo`, headers: { A: { secretKeyRef: { name: 'nope', key: 'k' } } } }),
    ).rejects.toMatchObject({ statusCode: 404, reason: 'NotFound' });
    await expect(
      run({ url: `${base}/echo`, headers: { A: { secretKeyRef: { name: 'api-creds', key: 'nope' } } } }),
    ).rejects.toMatchObject({ reason: 'SecretKeyNotFound' });
    expect(seen).toEqual([]);
  });
});

describe('http: a value cannot change the host the url text fixes', () => {
  it.each(['@evil.example/x', '//evil.example/x', '\\\\evil.example', '../../../x', 'x?y=1#frag', 'a b'])(
    'path value %j stays on the fixed host',
    async (path) => {
      await run({ url: `${base}/{{ .Resource.data.path }}` }, { resource: withData({ path }) });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.host).toBe(`127.0.0.1:${port}`);
    },
  );

  it.each([
    ['glued to the host', `http://127.0.0.1:PORT{{ .Resource.data.v }}`, '@evil.example'],
    ['glued, changing the port', `http://127.0.0.1:PORT{{ .Resource.data.v }}/x`, '0@evil.example'],
    ['in the userinfo', `http://user:{{ .Resource.data.v }}@127.0.0.1:PORT/echo`, 'x@evil.example/'],
  ])('refuses a value %s that moves the request', async (_what, url, v) => {
    const err = await failure(() => run({ url: url.replace('PORT', String(port)) }, { resource: withData({ v }) }));
    expect(err).toMatchObject({ reason: 'InvalidURL', permanent: true });
    expect(seen).toEqual([]);
  });

  it("a templated host is the author's choice; a glued path still works", async () => {
    await run({ url: 'http://{{ .Resource.data.host }}/echo' }, { resource: withData({ host: `127.0.0.1:${port}` }) });
    await run({ url: `${base}{{ .Resource.data.v }}` }, { resource: withData({ v: '/echo' }) });
    expect(seen.map((s) => s.url)).toEqual(['/echo', '/echo']);
  });

  it('rejects non-http schemes', async () => {
    await expect(
      run({ url: '{{ .Resource.data.u }}' }, { resource: withData({ u: 'file:///etc/passwd' }) }),
    ).rejects.toMatchObject({ reason: 'InvalidURL' });
  });
});

describe('http: template values in the path and query are percent-encoded', () => {
  const url = (): string =>
    `${base}/items/{{ .Resource.data.v }}/x?q={{ .Resource.data.v }}&{{ .Resource.data.v }}=k&fixed=1`;

  it.each([
    ['#', 'a#b', '/items/a%23b/x?q=a%23b&a%23b=k&fixed=1'],
    ['&', 'a&admin=1', '/items/a%26admin%3D1/x?q=a%26admin%3D1&a%26admin%3D1=k&fixed=1'],
    ['?', 'a?b', '/items/a%3Fb/x?q=a%3Fb&a%3Fb=k&fixed=1'],
    ['/..', '/../admin', '/items/%2F..%2Fadmin/x?q=%2F..%2Fadmin&%2F..%2Fadmin=k&fixed=1'],
    ['%2F', '%2F', '/items/%252F/x?q=%252F&%252F=k&fixed=1'],
    ['spaces and +', 'a b+c', '/items/a%20b%2Bc/x?q=a%20b%2Bc&a%20b%2Bc=k&fixed=1'],
    [
      'unicode',
      'é✓日',
      '/items/%C3%A9%E2%9C%93%E6%97%A5/x?q=%C3%A9%E2%9C%93%E6%97%A5&%C3%A9%E2%9C%93%E6%97%A5=k&fixed=1',
    ],
    ['a plain value', 'shop-1', '/items/shop-1/x?q=shop-1&shop-1=k&fixed=1'],
  ])('%s: the server receives exactly one segment and one component', async (_what, v, requestTarget) => {
    await run({ url: url() }, { resource: withData({ v }) });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: requestTarget, host: `127.0.0.1:${port}` });
  });

  it('a value of . or .. as a path segment is refused before any request; in the query it is data', async () => {
    for (const v of ['.', '..']) {
      const err = await failure(() =>
        run({ url: `${base}/items/{{ .Resource.data.v }}/x` }, { resource: withData({ v }) }),
      );
      expect(err).toMatchObject({ reason: 'InvalidURL', permanent: true });
      expect(err.message).toContain('would move the request to another path');
    }
    expect(seen).toEqual([]);
    await run({ url: `${base}/items?q={{ .Resource.data.v }}` }, { resource: withData({ v: '..' }) });
    expect(seen[0]?.url).toBe('/items?q=..');
  });

  it('a templated host or a value glued onto the host stays as rendered, under the host guard', async () => {
    await run(
      { url: 'http://{{ .Resource.data.host }}/echo?a={{ .Resource.data.v }}' },
      { resource: withData({ host: `127.0.0.1:${port}`, v: 'x&y' }) },
    );
    await run({ url: `${base}{{ .Resource.data.v }}` }, { resource: withData({ v: '/echo?a=1&b=2' }) });
    expect(seen.map((s) => s.url)).toEqual(['/echo?a=x%26y', '/echo?a=1&b=2']);
  });
});
