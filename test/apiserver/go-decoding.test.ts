// Bodies that do not decode into a built-in kind's Go types are a 400 before any validation, with
// Go's text (each message below is what kube-apiserver v1.34.4 answered to the same body); a PUT
// whose body names another object is a 400 even when the URL's object does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

async function send(
  method: string,
  path: string,
  body: string,
): Promise<{ status: number; reason: string; message: string }> {
  const r = await fetch(`${ts.server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body });
  const s = (await r.json()) as { reason: string; message: string };
  return { status: r.status, reason: s.reason, message: s.message };
}

const pods = '/api/v1/namespaces/default/pods';
const cases: Array<[what: string, path: string, body: object, message: string]> = [
  [
    'a ConfigMap whose data is a string',
    '/api/v1/namespaces/default/configmaps',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd1' }, data: 'x' },
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string',
  ],
  [
    'a number as a label value',
    '/api/v1/namespaces/default/configmaps',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd2', labels: { a: 1 } } },
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
  ],
  [
    'a number as a container name',
    pods,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd3' }, spec: { containers: [{ name: 1 }] } },
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string',
  ],
  [
    'a string as a container',
    pods,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd4' }, spec: { containers: ['x'] } },
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container',
  ],
  [
    'a fraction as an int32',
    pods,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'd5' },
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 1.5 }] }] },
    },
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
  ],
  [
    'a bool as an int-or-string',
    '/api/v1/namespaces/default/services',
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'd6' }, spec: { ports: [{ port: 80, targetPort: true }] } },
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'a quantity that does not parse',
    pods,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'd8' },
      spec: { overhead: { cpu: 'x' }, containers: [{ name: 'c', image: 'i' }] },
    },
    'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
  ],
  [
    'Secret data that is not base64',
    '/api/v1/namespaces/default/secrets',
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'd7' }, data: { a: 'not-base64!' } },
    'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3',
  ],
];

describe('Go decoding of built-in kinds', () => {
  it.each(cases)("%s is a 400 with Go's text", async (_what, path, body, message) => {
    expect(await send('POST', path, JSON.stringify(body))).toEqual({ status: 400, reason: 'BadRequest', message });
  });

  it('a valid body of the same shape is created (the check refuses only what Go refuses)', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'ok', labels: { a: '' } },
      spec: { ports: [{ port: 80, targetPort: 'http' }] },
    };
    expect((await send('POST', '/api/v1/namespaces/default/services', JSON.stringify(body))).status).toBe(201);
  });
});

describe('PUT of a missing object', () => {
  it('whose body names another object is a 400, not a 404', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } };
    expect(await send('PUT', '/api/v1/namespaces/default/configmaps/missing', JSON.stringify(body))).toEqual({
      status: 400,
      reason: 'BadRequest',
      message: 'the name of the object (other) does not match the name on the URL (missing)',
    });
  });

  it('whose body names it is still a 404', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing' } };
    expect((await send('PUT', '/api/v1/namespaces/default/configmaps/missing', JSON.stringify(body))).status).toBe(404);
  });
});
