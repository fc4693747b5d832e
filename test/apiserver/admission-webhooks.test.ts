import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { CASES, caseKey, installCases, runCase, type ApiCall, type CaseOutcome } from './admission/webhook-cases.js';

// Admission webhooks called by the embedded server over real HTTPS: a node:https webhook with a
// CA of its own, configured by MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// objects created over HTTP. The texts are kube-apiserver 1.34's (test/real/admission-side-by-side
// compares them with the real server's case by case).

let server: TestServer;
let wh: WebhookServer;
let other: WebhookServer;
let dir: string;
let call: ApiCall;
const outcomes = new Map<string, CaseOutcome>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flowops-admission-'));
  server = await startTestServer();
  wh = await startWebhookServer(join(dir, 'webhook-pki'), ['hook.default.svc']);
  other = await startWebhookServer(join(dir, 'other-pki'));
  call = async (method, path, body) => {
    const r = await fetch(server.server.url + path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const warnings = (r.headers.get('warning') ?? '').split(/,\s*(?=299 )/).filter(Boolean);
    return { status: r.status, body: (await r.json()) as Record<string, unknown>, warnings };
  };
  await installCases(call, wh, other.caBundle);
  for (const c of CASES) outcomes.set(caseKey(c), await runCase(call, c));
}, 60_000);

afterAll(async () => {
  await wh?.close();
  await other?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const outcome = (key: string): CaseOutcome => {
  const o = outcomes.get(key);
  if (!o) throw new Error(`no case ${key}`);
  return o;
};

describe('validating webhooks', () => {
  it("a refusal is the webhook message under kube-apiserver's prefix, with the webhook's code", () => {
    expect(outcome('deny/c-deny')).toMatchObject({
      status: 400,
      reason: undefined,
      message: 'admission webhook "deny.example.com" denied the request: names starting with bad are refused',
    });
    expect(outcome('deny-code/c-deny-code')).toMatchObject({
      status: 422,
      reason: 'Invalid',
      message: 'admission webhook "deny-code.example.com" denied the request: not on my watch',
    });
    expect(outcome('deny-bare/c-deny-bare').message).toBe(
      'admission webhook "deny-bare.example.com" denied the request without explanation',
    );
  });

  it('a webhook that hangs past timeoutSeconds fails the write under Fail, not under Ignore', () => {
    const message =
      'failed calling webhook "hang.example.com": failed to call webhook: ' +
      `Post "${wh.url}/hang?timeout=2s": context deadline exceeded`;
    expect(outcome('hang/c-hang')).toMatchObject({
      status: 500,
      reason: 'InternalError',
      message: `Internal error occurred: ${message}`,
      causes: [{ message }],
    });
    expect(outcome('hang-ignore/c-hang-ignore')).toMatchObject({ status: 201, labels: { case: 'hang-ignore' } });
  });

  it("an answer that is no AdmissionReview is a call failure, in client-go's words", () => {
    expect(outcome('garbage/c-garbage').status).toBe(500);
    expect(outcome('garbage/c-garbage').message).toContain(
      'failed calling webhook "garbage.example.com": failed to call webhook: ' +
        "couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value",
    );
    expect(outcome('garbage-ignore/c-garbage-ignore').status).toBe(201);
  });

  it("a certificate the caBundle did not sign is refused with crypto/x509's text", () => {
    expect(outcome('tls/c-tls')).toMatchObject({
      status: 500,
      message:
        'Internal error occurred: failed calling webhook "tls.example.com": failed to call webhook: ' +
        `Post "${wh.url}/allow?timeout=2s": ` +
        'tls: failed to verify certificate: x509: certificate signed by unknown authority ' +
        '(possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority ' +
        'certificate "flowops-ca")',
    });
  });

  it('warnings reach the client; rules, matchConditions, namespaceSelector, matchPolicy Exact choose', () => {
    expect(outcome('warn/c-warn').status).toBe(201);
    expect(outcome('warn/c-warn').warnings.join('\n')).toContain('this is a warning from the webhook');
    expect(outcome('update-only/c-update-only').status).toBe(201);
    expect(outcome('update-only/c-update-only-2+update')).toMatchObject({
      status: 400,
      message: expect.stringContaining('"update-only.example.com" denied'),
    });
    expect(outcome('condition/c-condition').status).toBe(201);
    expect(outcome('condition/bad-condition').status).toBe(400);
    expect(outcome('strict-ns/c-strict-ns@strict').status).toBe(400);
    expect(outcome('strict-ns/c-strict-ns').status).toBe(201);
    expect(outcome('exact/c-exact').status).toBe(201);
  });

  it('each call carried an AdmissionReview v1 request of the write', () => {
    const review = wh.received.find((r) => r.path === '/deny' && r.request.name === 'c-deny')?.request;
    expect(review).toMatchObject({
      operation: 'CREATE',
      namespace: 'default',
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      dryRun: false,
      oldObject: null,
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c-deny', labels: { case: 'deny' } } },
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    const update = wh.received.find((r) => r.path === '/deny' && r.request.operation === 'UPDATE')?.request;
    expect(update?.oldObject).toMatchObject({ data: { a: '1' } });
    expect(update?.object).toMatchObject({ data: { a: '2' } });
  });
});

describe('mutating webhooks', () => {
  it('a JSONPatch answer is applied before the object is stored, and a dry run is patched too', async () => {
    expect(outcome('label/c-label')).toMatchObject({ status: 201, labels: { case: 'label', mutated: 'yes' } });
    const stored = await call('GET', '/api/v1/namespaces/default/configmaps/c-label');
    expect((stored.body.metadata as { labels: unknown }).labels).toEqual({ case: 'label', mutated: 'yes' });
    expect(outcome('label/c-label-dry?dryRun=All')).toMatchObject({ status: 201, labels: { mutated: 'yes' } });
    expect((await call('GET', '/api/v1/namespaces/default/configmaps/c-label-dry')).status).toBe(404);
    expect(wh.received.find((r) => r.request.name === 'c-label-dry')?.request.dryRun).toBe(true);
  });

  it('validating webhooks see what the mutating ones left', () => {
    expect(outcome('label-then-deny/c-label-then-deny')).toMatchObject({
      status: 400,
      message: expect.stringContaining('"label-then-deny-v.example.com" denied'),
    });
  });

  it("a patch that does not apply is an internal error in json-patch's words", () => {
    expect(outcome('bad-patch/c-bad-patch')).toMatchObject({
      status: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: replace operation does not apply: doc is missing path: /nope/x: missing value',
    });
  });
});

// Endpoints may not name a loopback address (ValidateNonSpecialIP, as kube-apiserver refuses it), so
// the Service's endpoint is this machine's own non-loopback address, forwarded to the webhook.
const hostAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

async function forwardFrom(host: string, to: number): Promise<Server> {
  const fwd = createServer((socket) => socket.pipe(connect(to, '127.0.0.1')).pipe(socket));
  await new Promise<void>((resolve) => fwd.listen(0, host, resolve));
  return fwd;
}

describe('clientConfig.service', () => {
  it.skipIf(hostAddress === undefined)(
    'is resolved through the Service to its endpoints, TLS checked against name.namespace.svc',
    async () => {
      const fwd = await forwardFrom(hostAddress ?? '', Number(new URL(wh.url).port));
      const port = (fwd.address() as { port: number }).port;
      expect(
        (
          await call('POST', '/api/v1/namespaces/default/services', {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'hook' },
            spec: { ports: [{ name: 'https', port: 443, targetPort: port }] },
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await call('POST', '/api/v1/namespaces/default/endpoints', {
            apiVersion: 'v1',
            kind: 'Endpoints',
            metadata: { name: 'hook' },
            subsets: [{ addresses: [{ ip: hostAddress }], ports: [{ name: 'https', port }] }],
          })
        ).status,
      ).toBe(201);
      const cfg = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'by-service' },
        webhooks: [
          {
            name: 'svc.example.com',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            clientConfig: { service: { name: 'hook', namespace: 'default', path: '/deny' }, caBundle: wh.caBundle },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
          },
        ],
      };
      expect(
        (await call('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', cfg)).status,
      ).toBe(201);
      const r = await call('POST', '/api/v1/namespaces/default/secrets', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1' },
      });
      expect(r).toMatchObject({
        status: 400,
        body: {
          message: 'admission webhook "svc.example.com" denied the request: names starting with bad are refused',
        },
      });
      const del = await call(
        'DELETE',
        '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/by-service',
      );
      expect(del.status).toBe(200);
      expect(
        (
          await call('POST', '/api/v1/namespaces/default/secrets', {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 's1' },
          })
        ).status,
      ).toBe(201);
      fwd.close();
    },
  );
});

describe('every write verb is admitted', () => {
  const cm = (name: string, labels: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', labels },
    data: { a: '1' },
  });

  it('a merge patch and a server-side apply go through the mutating webhook', async () => {
    const patched = await fetch(`${server.server.url}/api/v1/namespaces/default/configmaps/c-label`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { mutated: null } }, data: { b: '2' } }),
    });
    expect(patched.status).toBe(200);
    // The patch took the label away; the webhook put it back before the object was stored.
    expect(((await patched.json()) as { metadata: { labels: unknown } }).metadata.labels).toEqual({
      case: 'label',
      mutated: 'yes',
    });
    const applied = await fetch(`${server.server.url}/api/v1/namespaces/default/configmaps/c-applied?fieldManager=me`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify(cm('c-applied', { case: 'label' })),
    });
    expect(applied.status).toBe(201);
    const body = (await applied.json()) as {
      metadata: { labels: unknown; managedFields: Array<{ manager: string; operation: string }> };
    };
    expect(body.metadata.labels).toEqual({ case: 'label', mutated: 'yes' });
    expect(body.metadata.managedFields.map((f) => `${f.manager}/${f.operation}`)).toContain('me/Apply');
    const review = wh.received.find((r) => r.path === '/label' && r.request.name === 'c-applied')?.request;
    expect(review).toMatchObject({ operation: 'CREATE', options: { kind: 'PatchOptions', fieldManager: 'me' } });
  });

  it('a DELETE is sent with the old object and refused by a validating webhook for deletes', async () => {
    expect((await call('POST', '/api/v1/namespaces/default/configmaps', cm('keep-me', { keep: 'yes' }))).status).toBe(
      201,
    );
    const cfg = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'no-delete' },
      webhooks: [
        {
          name: 'no-delete.example.com',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          clientConfig: { url: `${wh.url}/deny`, caBundle: wh.caBundle },
          objectSelector: { matchLabels: { keep: 'yes' } },
          rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        },
      ],
    };
    expect(
      (await call('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', cfg)).status,
    ).toBe(201);
    const r = await call('DELETE', '/api/v1/namespaces/default/configmaps/keep-me');
    expect(r).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('"no-delete.example.com" denied') },
    });
    const review = wh.received.find((x) => x.request.operation === 'DELETE')?.request;
    expect(review).toMatchObject({
      name: 'keep-me',
      object: null,
      oldObject: { metadata: { name: 'keep-me' } },
      options: { kind: 'DeleteOptions' },
    });
    expect((await call('GET', '/api/v1/namespaces/default/configmaps/keep-me')).status).toBe(200);
  });
});
