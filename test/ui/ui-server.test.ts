import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { readCommitFile } from '../../src/ui-server/commit-file.js';
import { operatorControllers, stagesOf } from '../../src/ui-server/operator-graph.js';
import { actionAllowed, hostAllowed } from '../../src/ui-server/request-guard.js';
import { uiRoute, type UiRoute } from '../../src/ui-server/route.js';
import type { ChangeMessage, ObjectDetail, Overview } from '../../src/ui-server/types.js';
import { CACHE_CRD, CACHE_FLOW, cache } from '../fixtures/cache-operator.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

// The web view's backend over HTTP, without a browser: its JSON, its stream, its static files.
// The controllers run without the simulator, so the Cache's StatefulSet stays 0/3 ready.

let env: FlowOpsEnv;
let ui: UiRoute;
let base: string;
let dist: string;

beforeAll(async () => {
  env = await startFlowOps();
  dist = mkdtempSync(join(tmpdir(), 'flowops-ui-dist-'));
  ui = uiRoute({ kube: env.kube, log: pino({ level: 'silent' }), distDir: dist });
  env.ts.server.addRoute((req, res, url) => ui.handle(req, res, url));
  base = env.ts.server.url;
  await env.kubectl.ok(['apply', '-f', '-'], CACHE_CRD);
  await env.kubectl.ok(['apply', '-f', '-'], CACHE_FLOW);
  await env.kubectl.ok(['apply', '-f', '-'], cache({ replicas: 3, shards: [1], extra: false }));
});
afterAll(async () => {
  await ui?.stop();
  await env?.stop();
});

const json = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${base}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
const cacheUrl = '/ui/api/object?apiVersion=example.com/v1&kind=Cache&namespace=default&name=fast';

describe('the web view backend', () => {
  it('lists the Flow with its watched kind on the overview', async () => {
    const o = await waitFor(
      async () => {
        const r = await json<Overview>('/ui/api/overview');
        return r.flows.find((f) => f.name === 'cache-operator' && f.counts.watched === 1) ? r : undefined;
      },
      { what: 'cache-operator counted' },
    );
    expect(o.flows.find((f) => f.name === 'cache-operator')!.watched).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Cache',
    });
    expect(o.sources).toEqual([]);
  });

  it('shows an object with its inventory children, each judged by kstatus, and the not-ready reason', async () => {
    const d = await waitFor(
      async () => {
        const r = await json<ObjectDetail>(cacheUrl);
        return r.children.length === 2 && r.ready?.reason === 'ChildrenNotReady' ? r : undefined;
      },
      { what: 'children and ChildrenNotReady' },
    );
    expect(d.children.map((c) => [c.key.kind, c.key.name, c.health, c.message])).toEqual([
      ['ConfigMap', 'fast-shard-1', 'Current', ''],
      ['StatefulSet', 'fast', 'InProgress', '0/3 replicas ready'],
    ]);
    expect(d.ready!.message).toContain('StatefulSet fast: 0/3 replicas ready');
    expect(d.watchedBy).toEqual(['default/cache-operator']);
    const flow = await json<{ objects: Array<{ key: { name: string }; children: number }>; yaml: string }>(
      '/ui/api/flows/default/cache-operator',
    );
    expect(flow.objects).toEqual([
      expect.objectContaining({ key: expect.objectContaining({ name: 'fast' }), children: 2 }),
    ]);
    expect(flow.yaml).toContain('kind: Flow');
  });

  it('streams a hello, then the changes a watch sees', async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/ui/api/stream`, { signal: abort.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (pattern: RegExp): Promise<void> => {
      await waitFor(
        async () => {
          if (pattern.test(text)) return true;
          const { value } = await reader.read();
          text += new TextDecoder().decode(value);
          return pattern.test(text);
        },
        { what: `stream to match ${pattern}` },
      );
    };
    try {
      await readUntil(/event: hello/);
      await env.kubectl.ok(['label', 'cache', 'fast', 'team=web']);
      await readUntil(/"kind":"Cache"[^}]*"name":"fast"/);
      const batch = text.split('\n').find((l) => l.startsWith('data: [') && l.includes('"Cache"'))!;
      expect(JSON.parse(batch.slice('data: '.length)) as ChangeMessage[]).toContainEqual({
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        namespace: 'default',
        name: 'fast',
      });
    } finally {
      abort.abort();
    }
  });

  it('names the failing step of a broken object', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      [
        'apiVersion: flowops.io/v1',
        'kind: Flow',
        'metadata: { name: broken, namespace: default }',
        'spec:',
        '  watch: { apiVersion: v1, kind: ConfigMap, labelSelector: { matchLabels: { app: broken } } }',
        '  reconcile:',
        '    steps:',
        '      - name: check-input',
        '        type: script',
        '        errorHandling: { type: permanent }',
        '        script: |',
        '          echo "input is not valid" >&2',
        '          exit 3',
        '',
      ].join('\n'),
    );
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: input, namespace: default, labels: { app: broken } }\ndata: { a: "1" }\n',
    );
    const d = await waitFor(
      async () => {
        const r = await json<ObjectDetail>('/ui/api/object?apiVersion=v1&kind=ConfigMap&namespace=default&name=input');
        return r.failure ? r : undefined;
      },
      { what: 'the failure recorded', timeoutMs: 20_000 },
    );
    expect(d.failure).toMatchObject({ step: 'check-input', terminal: true });
    expect(d.health).toEqual({ status: 'Failed', message: 'reconcile failing at step "check-input"' });
    expect(d.failure!.message).toContain('step "check-input" failed');
    expect(d.watchedBy).toContain('default/broken');
  });

  it("hides a Secret's values and its last-applied annotation", async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Secret\nmetadata: { name: token, namespace: default }\nstringData: { token: very-secret }\n',
    );
    const text = await (
      await fetch(`${base}/ui/api/object?apiVersion=v1&kind=Secret&namespace=default&name=token`)
    ).text();
    expect(text).not.toContain('very-secret');
    expect(text).not.toContain(Buffer.from('very-secret').toString('base64'));
    expect(text).not.toContain('last-applied-configuration');
    expect((JSON.parse(text) as ObjectDetail).yaml).toContain('token: (hidden)');
  });

  it('answers 404 for what is not there and 405 for other writes', async () => {
    expect((await fetch(`${base}/ui/api/flows/default/nope`)).status).toBe(404);
    expect((await fetch(`${base}/ui/api/unknown`)).status).toBe(404);
    expect((await fetch(`${base}/ui/api/overview`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/ui/api/flows/default/%E0%A4%A`)).status).toBe(400);
  });

  it('says how to build the UI when it is not built, then serves it from disk with history routing', async () => {
    const missing = await fetch(`${base}/ui/`);
    expect(missing.status).toBe(503);
    expect(await missing.text()).toContain('npm run build');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>FlowOps</title>');
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'export {};');
    const redirect = await fetch(`${base}/ui`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([308, '/ui/']);
    const page = await fetch(`${base}/ui/flows/default/cache-operator`);
    expect(await page.text()).toContain('<title>FlowOps</title>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const asset = await fetch(`${base}/ui/assets/app-1234.js`);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // An encoded ../ is decoded by the route, and still cannot leave ui/dist.
    const escaping = await fetch(`${base}/ui/..%2F..%2Fpackage.json`);
    expect(await escaping.text()).toContain('<title>FlowOps</title>');
  });

  it("runs source actions as spec patches and passes the server's refusal on", async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: flowops.io/v1\nkind: FlowSource\nmetadata: { name: repo, namespace: default }\nspec: { url: "http://127.0.0.1:9/none.git" }\n',
    );
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/ui/api/sources/default/repo/actions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const suspended = await post({ action: 'suspend' });
    expect(suspended.status).toBe(200);
    expect(await env.kubectl.ok(['get', 'flowsource', 'repo', '-o', 'jsonpath={.spec.suspend}'])).toBe('true');
    expect((await post({ action: 'resume' })).status).toBe(200);
    expect(await env.kubectl.ok(['get', 'flowsource', 'repo', '-o', 'jsonpath={.spec.suspend}'])).toBe('');
    const unknownCommit = await post({ action: 'pin', commit: 'a'.repeat(40) });
    expect([unknownCommit.status, ((await unknownCommit.json()) as { error: string }).error]).toEqual([
      400,
      'aaaaaaaa is not in the history of default/repo',
    ]);
    // No Git poller in this process: "sync now" is the reconcile annotation, as `flowops reconcile` sends it.
    expect((await post({ action: 'sync' })).status).toBe(200);
    expect(
      await env.kubectl.ok([
        'get',
        'flowsource',
        'repo',
        '-o',
        'jsonpath={.metadata.annotations.flowops\\.io/reconcile-requested-at}',
      ]),
    ).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await post({ action: 'explode' })).status).toBe(400);
    expect((await post({ action: 'suspend' }, { Origin: 'http://evil.example' })).status).toBe(403);
    const form = await fetch(`${base}/ui/api/sources/default/repo/actions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'action=suspend',
    });
    expect(form.status).toBe(403);
    expect(
      (
        await fetch(`${base}/ui/api/sources/default/missing/actions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"action":"unpin"}',
        })
      ).status,
    ).toBe(404);
  });
});

describe('the web view request guards', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('answers only loopback Host names on a loopback listener (DNS rebinding)', () => {
    expect(hostAllowed(req({ host: '127.0.0.1:6443' }), true)).toBe(true);
    expect(hostAllowed(req({ host: 'localhost:6443' }), true)).toBe(true);
    expect(hostAllowed(req({ host: '[::1]:6443' }), true)).toBe(true);
    expect(hostAllowed(req({ host: 'attacker.example:6443' }), true)).toBe(false);
    expect(hostAllowed(req({ host: 'flowops.internal' }), false)).toBe(true);
  });

  it('takes actions only from its own origin, as JSON', () => {
    expect(
      actionAllowed(
        req({ host: '127.0.0.1:6443', origin: 'http://127.0.0.1:6443', 'content-type': 'application/json' }),
      ),
    ).toBeUndefined();
    expect(
      actionAllowed(req({ host: '127.0.0.1:6443', origin: 'http://evil.example', 'content-type': 'application/json' })),
    ).toBe('cross-origin request refused');
    expect(actionAllowed(req({ host: '127.0.0.1:6443', 'content-type': 'text/plain' }))).toBe('expected a JSON body');
  });
});

describe('the committed file a Flow page shows', () => {
  it('is read inside the commit export only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-export-'));
    mkdirSync(join(dir, 'ops'));
    writeFileSync(join(dir, 'ops', 'flow.yaml'), 'kind: Flow\n');
    expect(readCommitFile(dir, 'ops/flow.yaml')).toBe('kind: Flow\n');
    expect(readCommitFile(dir, '../../etc/passwd')).toBeUndefined();
    expect(readCommitFile(dir, 'ops/missing.yaml')).toBeUndefined();
    expect(readCommitFile(undefined, 'ops/flow.yaml')).toBeUndefined();
  });
});

describe("an Operator's graph", () => {
  it('reads sources, stages in order and the target, views included', () => {
    expect(stagesOf([{ '@join': {} }, { '@select': {}, '@project': {} }])).toEqual(['@join', '@select', '@project']);
    expect(stagesOf({ '@aggregate': [] })).toEqual(['@aggregate']);
    const [c] = operatorControllers({
      apiVersion: 'dcontroller.io/v1alpha1',
      kind: 'Operator',
      metadata: { name: 'svc' },
      spec: {
        controllers: [
          {
            name: 'c1',
            sources: [{ apiGroup: '', kind: 'Service' }, { kind: 'Health' }],
            pipeline: { '@project': {} },
            target: { kind: 'Report', type: 'Updater' },
          },
        ],
      },
      status: {
        controllers: [
          {
            name: 'c1',
            conditions: [{ type: 'Ready', status: 'False', reason: 'NotReady', message: 'boom' }],
            lastErrors: ['boom'],
          },
        ],
      },
    });
    expect(c).toEqual({
      name: 'c1',
      sources: [
        { kind: 'Service', group: 'core', view: false },
        { kind: 'Health', group: 'svc.view.dcontroller.io', view: true },
      ],
      stages: ['@project'],
      target: { kind: 'Report', group: 'svc.view.dcontroller.io', view: true, type: 'Updater' },
      ready: { status: 'False', reason: 'NotReady', message: 'boom' },
      lastErrors: ['boom'],
    });
  });
});
