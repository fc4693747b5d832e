import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FixedSchemas,
  generateServingPki,
  startWebhookServer,
  type WebhookServer,
} from '../../src/admission-webhook/index.js';
import { createLogger } from '../../src/log/index.js';
import { SchemaRegistry } from '../../src/typecheck/index.js';
import { ROOT } from '../helpers/cli.js';

// The webhook server over real HTTPS, as kube-apiserver calls it: AdmissionReview v1 in and out,
// the Flow checks of `flowops validate` with the CRD's schema, 400 for a malformed review, and a
// certificate swapped without closing the listener.

const example = (f: string): string => readFileSync(join(ROOT, 'repos-example/database-operator', f), 'utf8');
const crd: unknown = parse(example('crd.yaml'));
const goodFlow = parse(example('flow.yaml')) as Record<string, unknown>;
const badFlow = parse(
  example('flow.yaml').replace('{{ .Resource.spec.replicas }}', '{{ .Resource.spec.replica }}'),
) as Record<string, unknown>;

function review(
  kind: { group: string; version: string; kind: string },
  object: unknown,
  operation = 'CREATE',
): unknown {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-1', kind, operation, object },
  };
}
const FLOW = { group: 'flowops.io', version: 'v1', kind: 'Flow' };

describe('admission webhook server', () => {
  let pki = generateServingPki(['127.0.0.1'], 3_600_000);
  let server: WebhookServer;
  beforeAll(async () => {
    const log = createLogger({}, 'json');
    log.level = 'silent';
    server = await startWebhookServer({
      host: '127.0.0.1',
      port: 0,
      certificate: pki.serving,
      schemas: new FixedSchemas(new SchemaRegistry([crd])),
      log,
    });
  });
  afterAll(() => server.close());

  function post(body: string, ca = pki.ca.cert): Promise<{ status: number; text: string }> {
    const [host, port] = server.address.split(':');
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host,
          port: Number(port),
          method: 'POST',
          path: '/validate',
          ca,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  const answer = async (body: unknown) => {
    const r = await post(JSON.stringify(body));
    expect(r.status, r.text).toBe(200);
    return (
      JSON.parse(r.text) as {
        response: { uid: string; allowed: boolean; status?: { code: number; message: string }; warnings?: string[] };
      }
    ).response;
  };

  it('admits the example Flow and refuses one with a misspelled field, naming the field and the fix', async () => {
    expect(await answer(review(FLOW, goodFlow))).toEqual({ uid: 'u-1', allowed: true });
    const refused = await answer(review(FLOW, badFlow));
    expect(refused.allowed).toBe(false);
    expect(refused.status?.code).toBe(422);
    expect(refused.status?.message).toMatch(
      /^Flow "database-operator" is invalid: spec\.reconcile\.steps\[0\]\.manifests: .*replica.*did you mean "?replicas"?/,
    );
  });

  it('refuses a Flow whose structure is wrong and a FlowSource without a URL; admits other kinds and deletes', async () => {
    const structure = await answer(review(FLOW, { ...goodFlow, spec: { watch: { kind: 'Database' } } }));
    expect(structure.allowed).toBe(false);
    expect(structure.status?.message).toContain('spec.watch.apiVersion');
    const source = await answer(
      review(
        { group: 'flowops.io', version: 'v1', kind: 'FlowSource' },
        { apiVersion: 'flowops.io/v1', kind: 'FlowSource', metadata: { name: 's' }, spec: {} },
      ),
    );
    expect(source.allowed).toBe(false);
    expect(source.status?.message).toContain('spec.url');
    const operator = await answer(
      review(
        { group: 'dcontroller.io', version: 'v1alpha1', kind: 'Operator' },
        { metadata: { name: 'o' }, spec: { controllers: [{ name: 'c' }] } },
      ),
    );
    expect(operator.status?.message).toContain('spec.controllers[0]: controller c: at least one source is required');
    const misread = {
      name: 'c',
      sources: [{ apiGroup: '', kind: 'Service' }],
      pipeline: { '@project': { metadata: { name: '$.metadata.name' }, ports: '$.spec.portz' } },
      target: { kind: 'PortView' },
    };
    const pipeline = await answer(
      review(
        { group: 'dcontroller.io', version: 'v1alpha1', kind: 'Operator' },
        { metadata: { name: 'o' }, spec: { controllers: [misread] } },
      ),
    );
    expect(pipeline.allowed).toBe(false);
    expect(pipeline.status?.message).toContain(
      'spec.controllers[0].pipeline["@project"].ports: unknown field "spec.portz" in Service; did you mean "ports"?',
    );
    expect(
      (await answer(review({ group: '', version: 'v1', kind: 'ConfigMap' }, { metadata: { name: 'x' } }))).allowed,
    ).toBe(true);
    expect((await answer(review(FLOW, badFlow, 'DELETE'))).allowed).toBe(true);
  });

  it('answers a malformed AdmissionReview with 400 and says what is wrong', async () => {
    expect(await post('{not json')).toEqual({ status: 400, text: 'malformed AdmissionReview: the body is not JSON' });
    const v1beta1 = await post(
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: {} }),
    );
    expect(v1beta1).toEqual({
      status: 400,
      text: 'malformed AdmissionReview: apiVersion: expected "admission.k8s.io/v1", got "admission.k8s.io/v1beta1"',
    });
    const noUid = await post(
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { kind: FLOW } }),
    );
    expect(noUid).toEqual({ status: 400, text: 'malformed AdmissionReview: request.uid: required' });
  });

  it('serves a new certificate to new connections once swapped', async () => {
    const peer = (ca: string) =>
      new Promise<PeerCertificate>((resolve, reject) => {
        const [host, port] = server.address.split(':');
        const s = connect({ host, port: Number(port), ca, servername: '' }, () => {
          resolve(s.getPeerCertificate());
          s.end();
        });
        s.on('error', reject);
      });
    const before = await peer(pki.ca.cert);
    const next = generateServingPki(['127.0.0.1'], 3_600_000);
    server.useCertificate(next.serving);
    const after = await peer(next.ca.cert);
    expect(after.serialNumber).not.toBe(before.serialNumber);
    pki = next;
    expect((await answer(review(FLOW, goodFlow))).allowed).toBe(true);
    await expect(post('{}', generateServingPki(['127.0.0.1'], 3_600_000).ca.cert)).rejects.toThrow(
      /self.signed|unable to verify|certificate/i,
    );
  });
});
