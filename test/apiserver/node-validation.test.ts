// A Node's create and update as kube-apiserver v1.34 validates them (ValidateNode, ValidateNodeUpdate);
// test/fidelity/scenarios/nodes.ts compares the same with the real server in test:real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from '../helpers/api-call.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

interface Body {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const { call, causes } = apiCalls<Body>(() => ts);
let n = 0;
const node = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: `n-${n++}` },
  spec,
  ...(status ? { status } : {}),
});

describe('Node validation', () => {
  it('keeps a status given on create, with allocatable defaulted from capacity, and podCIDR copied to podCIDRs', async () => {
    const a = await call('POST', '/api/v1/nodes', node({ podCIDR: '10.0.0.0/24' }, { capacity: { cpu: '2' } }));
    expect(a.status).toBe(201);
    expect(a.body.spec).toMatchObject({ podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'] });
    expect(a.body.status).toMatchObject({ capacity: { cpu: '2' }, allocatable: { cpu: '2' } });
  });

  it.each([
    [{ taints: [{ key: 'a' }] }, undefined, 'metadata.taints[0].effect: Required value'],
    [
      {
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'a', effect: 'NoSchedule' },
        ],
      },
      undefined,
      'metadata.taints[1]: Duplicate value: {"Key":"a","Value":"","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair',
    ],
    [
      { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] },
      undefined,
      'spec.podCIDRs: Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family',
    ],
    [
      { podCIDR: '10.0.0.0' },
      undefined,
      'spec.podCIDRs[0]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ],
    [{}, { allocatable: { pods: '1500m' } }, 'status.allocatable.pods: Invalid value: "1500m": must be an integer'],
  ])('refuses %j %j on create', async (spec, status, cause) => {
    const a = await call('POST', '/api/v1/nodes', node(spec, status));
    expect(a.status).toBe(422);
    expect(causes(a)).toContain(cause);
  });

  it('refuses an update that moves podCIDR, providerID or externalID', async () => {
    const created = node({ podCIDR: '10.8.0.0/24', providerID: 'p', externalID: 'e' });
    const name = created.metadata.name;
    const first = await call('POST', '/api/v1/nodes', created);
    const a = await call('PUT', `/api/v1/nodes/${name}`, {
      ...created,
      metadata: { name, resourceVersion: first.body.metadata?.resourceVersion },
      spec: { podCIDR: '10.9.0.0/24', providerID: 'q', externalID: 'f' },
    });
    expect(a.status).toBe(422);
    expect(causes(a)).toEqual([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
      'spec.externalID: Forbidden: may not be updated',
    ]);
  });
});
