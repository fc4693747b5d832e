import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

// Each path of this server misbehaves its own way; requests are counted per path.
const hits = new Map<string, number>();
let server: Server;
let base: string;
let env: FlowOpsEnv;

function script(path: string, n: number): { status: number; hang?: boolean } {
  switch (path) {
    case '/flaky':
      return n === 1 ? { status: 503 } : { status: 200 };
    case '/throttled':
      return { status: 429 };
    case '/bad':
      return { status: 400 };
    case '/slow':
      return { status: 200, hang: true };
    default:
      return { status: 200 };
  }
}

const flow = (url: string) => `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: http-flow
  namespace: default
spec:
  watch:
    apiVersion: example.com/v1
    kind: Widget
  reconcile:
    steps:
      - name: call
        type: http
        method: POST
        url: ${url}/{{ .Resource.metadata.name }}
        body:
          widget: "{{ .Resource.metadata.name }}"
        errorHandling:
          type: retryable
          maxRetries: 3
          backoff: fixed
          retryDelay: 50ms
          timeout: 400ms
          retryOn: [{ statusCode: 429 }, { statusCode: 503 }]
          failOn: [{ statusCode: 400 }]
      - name: record
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: {{ .Resource.metadata.name }}-done
          data:
            status: "{{ .Steps.call.Outputs.status }}"
  onError:
    steps:
      - name: report
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: {{ .Resource.metadata.name }}-error
          data:
            step: {{ .Error.step }}
            reason: {{ .Error.reason }}
            message: {{ .Error.message | quote }}
`;

const widget = (name: string) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
  namespace: default
spec:
  size: 1
`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    const r = script(path, n);
    if (r.hang) return; // never answers: the step timeout must fire
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: r.status < 400, attempt: n }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A long queue backoff keeps each widget to one run, so request counts are exact.
  env = await startFlowOps({ backoff: { baseMs: 600_000, maxMs: 600_000 } });
  await env.kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
  await env.kubectl.ok(['apply', '-f', '-'], flow(base));
});
afterAll(async () => {
  await env?.stop();
  server?.closeAllConnections();
  server?.close();
});

const cm = async (name: string) => {
  const r = await env.kubectl(['get', 'configmap', name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as { data: Record<string, string> }) : undefined;
};
const ready = async (name: string) => {
  const w = JSON.parse(await env.kubectl.ok(['get', 'widget', name, '-o', 'json']));
  return (w.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready') as
    | { status: string; reason: string; message: string }
    | undefined;
};

describe('errorHandling against a misbehaving HTTP server', () => {
  it('retries a 503 and succeeds on the next attempt', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], widget('flaky'));
    const done = await waitFor(() => cm('flaky-done'), { what: 'flaky-done' });
    expect(done.data.status).toBe('200');
    expect(hits.get('/flaky')).toBe(2);
    await waitFor(async () => (await ready('flaky'))?.status === 'True', { what: 'Ready=True' });
  });

  it('retries 429 up to maxRetries, then runs onError and reports Ready=False with a Warning Event', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], widget('throttled'));
    const err = await waitFor(() => cm('throttled-error'), { what: 'onError ConfigMap' });
    expect(err.data).toMatchObject({ step: 'call', reason: 'HTTPError' });
    expect(err.data.message).toContain('429');
    expect(hits.get('/throttled')).toBe(4);
    const cond = await waitFor(() => ready('throttled').then((c) => (c?.status === 'False' ? c : undefined)), {
      what: 'Ready=False',
    });
    expect(cond.reason).toBe('HTTPError');
    expect(cond.message).toContain('step "call" failed');
    const events = await env.kubectl.ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=throttled,type=Warning',
      '-o',
      'json',
    ]);
    expect(JSON.parse(events).items.map((e: { reason: string }) => e.reason)).toContain('ReconcileFailed');
    expect(await cm('throttled-done')).toBeUndefined();
  });

  it('does not retry a status listed in failOn', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], widget('bad'));
    await waitFor(() => cm('bad-error'), { what: 'onError ConfigMap' });
    expect(hits.get('/bad')).toBe(1);
  });

  it('times out a step that does not answer, and retries it (a timeout is transient)', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], widget('slow'));
    const err = await waitFor(() => cm('slow-error'), { what: 'onError ConfigMap', timeoutMs: 20_000 });
    expect(err.data.reason).toBe('Timeout');
    expect(hits.get('/slow')).toBe(4);
  });

  it('counts failures in the Flow status', async () => {
    await waitFor(
      async () => {
        const f = JSON.parse(await env.kubectl.ok(['get', 'flow', 'http-flow', '-o', 'json']));
        return (
          f.status?.resources?.failed === 3 &&
          f.status.resources.succeeded === 1 &&
          f.status.conditions.find((c: { type: string }) => c.type === 'Ready')?.status === 'False'
        );
      },
      { what: 'Flow status counts' },
    );
  });
});
