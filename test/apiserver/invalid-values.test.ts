// Values a real cluster refuses with a 422 naming the field (messages copied from kube-apiserver v1.34.4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

async function call(
  method: string,
  path: string,
  body: object,
  type = 'application/json',
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${ts.server.url}${path}`, {
    method,
    headers: { 'content-type': type },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

const invalid = (kind: string, group: string | undefined, name: string, field: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${field}: ${message}`,
  reason: 'Invalid',
  details: { name, ...(group ? { group } : {}), kind, causes: [{ reason: 'FieldValueInvalid', message, field }] },
  code: 422,
});

describe('negative replicas', () => {
  const workloads = [
    { path: '/apis/apps/v1/namespaces/default/deployments', kind: 'Deployment', group: 'apps' },
    { path: '/apis/apps/v1/namespaces/default/statefulsets', kind: 'StatefulSet', group: 'apps' },
    { path: '/apis/apps/v1/namespaces/default/replicasets', kind: 'ReplicaSet', group: 'apps' },
  ];
  const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

  it.each(workloads)(
    'a $kind scaled below zero is a 422 naming spec.replicas, on its Scale and on itself',
    async ({ path, kind, group }) => {
      const name = `neg-${kind.toLowerCase()}`;
      const created = await call('POST', path, {
        apiVersion: `${group}/v1`,
        kind,
        metadata: { name },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'x' } },
          template,
          ...(kind === 'StatefulSet' ? { serviceName: 'x' } : {}),
        },
      });
      expect(created.status).toBe(201);
      const scale = await call(
        'PATCH',
        `${path}/${name}/scale`,
        { spec: { replicas: -1 } },
        'application/merge-patch+json',
      );
      expect(scale.status).toBe(422);
      expect(scale.body).toEqual(
        invalid('Scale', 'autoscaling', name, 'spec.replicas', 'Invalid value: -1: must be greater than or equal to 0'),
      );
      const put = await call('PUT', `${path}/${name}/scale`, {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name, namespace: 'default' },
        spec: { replicas: -3 },
      });
      expect(put.body.message).toBe(
        `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: -3: must be greater than or equal to 0`,
      );
      const direct = await call('PATCH', `${path}/${name}`, { spec: { replicas: -1 } }, 'application/merge-patch+json');
      expect(direct.status).toBe(422);
      expect(direct.body).toEqual(
        invalid(kind, group, name, 'spec.replicas', 'Invalid value: -1: must be greater than or equal to 0'),
      );
      const still = await fetch(`${ts.server.url}${path}/${name}`).then((r) => r.json() as Promise<any>);
      expect(still.spec.replicas).toBe(1);
    },
  );

  it('a Scale whose replicas is not a whole number is a 422 naming the field', async () => {
    const r = await call(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/neg-deployment/scale',
      { spec: { replicas: 'x' } },
      'application/merge-patch+json',
    );
    expect(r.status).toBe(422);
    expect(r.body.details.causes[0].field).toBe('spec.replicas');
    expect(r.body.message).toContain(
      'json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
    );
  });
});

describe('Service cluster IPs', () => {
  const svc = (name: string, clusterIP: string) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { clusterIP, ports: [{ port: 80 }] },
  });
  const post = (name: string, ip: string) => call('POST', '/api/v1/namespaces/default/services', svc(name, ip));

  it('outside the service CIDR (its network and broadcast addresses too) is a 422 naming spec.clusterIPs', async () => {
    for (const ip of ['192.168.0.10', '10.96.0.0', '10.111.255.255']) {
      const r = await post(`out-${ip.replace(/\./g, '-')}`, ip);
      expect(r.status).toBe(422);
      expect(r.body).toEqual(
        invalid(
          'Service',
          undefined,
          `out-${ip.replace(/\./g, '-')}`,
          'spec.clusterIPs',
          `Invalid value: ["${ip}"]: failed to allocate IP ${ip}: the provided network does not match the current range`,
        ),
      );
    }
  });

  it("one already taken (the kubernetes Service's included) is a 422 naming spec.clusterIPs", async () => {
    expect((await post('first', '10.96.0.50')).status).toBe(201);
    for (const [name, ip] of [
      ['taken', '10.96.0.50'],
      ['kube', '10.96.0.1'],
    ] as const) {
      const r = await post(name, ip);
      expect(r.status).toBe(422);
      expect(r.body).toEqual(
        invalid(
          'Service',
          undefined,
          name,
          'spec.clusterIPs',
          `Invalid value: ["${ip}"]: failed to allocate IP ${ip}: provided IP is already allocated`,
        ),
      );
    }
  });

  it('not an address is a 422 naming spec.clusterIPs[0]', async () => {
    const r = await post('bad', '10.96.0.300');
    expect(r.body).toEqual(
      invalid(
        'Service',
        undefined,
        'bad',
        'spec.clusterIPs[0]',
        'Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ),
    );
  });
});
