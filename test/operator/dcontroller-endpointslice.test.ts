import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

// Δ-controller's endpointslice-controller example, its files unchanged (test/fixtures/dcontroller/…/SOURCE.md),
// with the Service and EndpointSlice of its own test (examples/endpointslice-controller/ep_operator_test.go).
const DIR = join(import.meta.dirname, '../fixtures/dcontroller/endpointslice-controller');
const OPERATOR = readFileSync(join(DIR, 'endpointslice-operator.yaml'), 'utf8');
const GATHER_SPEC = parse(readFileSync(join(DIR, 'endpointslice-controller-gather-spec.yaml'), 'utf8')) as object;

const SERVICE = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'test-service-1',
    namespace: 'testnamespace',
    annotations: { 'dcontroller.io/endpointslice-controller-enabled': 'true' },
  },
  spec: {
    selector: { app: 'example' },
    type: 'ClusterIP',
    ports: [
      { name: 'tcp-port', protocol: 'TCP', port: 80, targetPort: 8080 },
      { name: 'udp-port', protocol: 'UDP', port: 3478, targetPort: 33478 },
    ],
  },
};
const SLICE = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: {
    name: 'test-endpointslice-1',
    namespace: 'testnamespace',
    labels: { 'kubernetes.io/service-name': 'test-service-1' },
  },
  addressType: 'IPv4',
  ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  endpoints: [
    {
      addresses: ['192.0.2.1'],
      conditions: { ready: true },
      hostname: 'pod-1',
      targetRef: { kind: 'Pod', name: 'example-pod-1' },
    },
    {
      addresses: ['192.0.2.2'],
      conditions: { ready: true },
      hostname: 'pod-2',
      targetRef: { kind: 'Pod', name: 'example-pod-2' },
    },
  ],
};

type View = {
  metadata: { name: string };
  spec: { serviceName: string; port: number; protocol: string; address?: string; addresses?: string[] };
  status?: object;
};

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps({ operators: true });
  await env.kubectl.ok(['create', 'namespace', 'testnamespace']);
  await env.kubectl.ok(['apply', '-f', '-'], JSON.stringify(SERVICE));
  await env.kubectl.ok(['apply', '-f', '-'], JSON.stringify(SLICE));
});
afterAll(async () => env?.stop());

const views = async (group: string): Promise<View[]> => {
  const r = await env.kubectl(['get', `endpointview.${group}`, '-n', 'testnamespace', '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as { items: View[] }).items : [];
};

describe('Δ-controller’s endpointslice-controller example, unchanged', () => {
  it('endpointslice-operator.yaml: one EndpointView per (service port, ready address)', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], OPERATOR);
    const got = await waitFor(
      async () => {
        const v = await views('ep-operator.view.dcontroller.io');
        return v.length === 4 ? v : undefined;
      },
      { what: '4 EndpointViews', timeoutMs: 60_000 },
    );
    expect(got.map((v) => `${v.spec.protocol}/${v.spec.port}/${v.spec.address}`).sort()).toEqual([
      'TCP/80/192.0.2.1',
      'TCP/80/192.0.2.2',
      'UDP/3478/192.0.2.1',
      'UDP/3478/192.0.2.2',
    ]);
    for (const v of got) expect(v.metadata.name).toMatch(/^test-service-1-/);
  });

  it('the gather spec: views named as its pipeline names them (test-service-1-TCP-80), one per service port', async () => {
    const op = {
      apiVersion: 'dcontroller.io/v1alpha1',
      kind: 'Operator',
      metadata: { name: 'ep-gather' },
      spec: GATHER_SPEC,
    };
    await env.kubectl.ok(['apply', '-f', '-'], JSON.stringify(op));
    const got = await waitFor(
      async () => {
        const v = await views('ep-gather.view.dcontroller.io');
        return v.length === 2 ? v : undefined;
      },
      { what: '2 gathered EndpointViews', timeoutMs: 60_000 },
    );
    expect(got.map((v) => v.metadata.name).sort()).toEqual(['test-service-1-TCP-80', 'test-service-1-UDP-3478']);
    for (const v of got) expect([...v.spec.addresses!].sort()).toEqual(['192.0.2.1', '192.0.2.2']);
  });

  it('views have a status subresource, and their names follow Δ-controller’s rules rather than DNS-1123', async () => {
    const resource = 'endpointview.ep-gather.view.dcontroller.io';
    await env.kubectl.ok([
      'patch',
      resource,
      'test-service-1-TCP-80',
      '-n',
      'testnamespace',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"programmed":true}}',
    ]);
    const status = await env.kubectl.ok([
      'get',
      resource,
      'test-service-1-TCP-80',
      '-n',
      'testnamespace',
      '--subresource=status',
      '-o',
      'jsonpath={.status.programmed}',
    ]);
    expect(status).toBe('true');
    const base = `${env.ts.server.url}/apis/ep-gather.view.dcontroller.io/v1alpha1/namespaces/testnamespace/endpointview`;
    const post = (name: string) =>
      fetch(base, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          apiVersion: 'ep-gather.view.dcontroller.io/v1alpha1',
          kind: 'EndpointView',
          metadata: { name },
          spec: {},
          status: { written: 'with the object' },
        }),
      });
    const created = await post('Mixed_Case.Name-1');
    expect(created.status).toBe(201);
    // A whole-object write carries its status, as in Δ-controller's view storage.
    expect(((await created.json()) as View).status).toEqual({ written: 'with the object' });
    const bad = await post('a%2Fb');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: string }).message).toContain("may not contain '/' or '%'");
  });
});
