import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startSimulatedCluster, type PodJson, type SimulatedCluster } from './harness.js';

type Slice = {
  metadata: {
    name: string;
    labels: Record<string, string>;
    ownerReferences: Array<{ kind: string; name: string; controller: boolean }>;
  };
  addressType: string;
  endpoints: Array<{
    addresses: string[];
    conditions: { ready: boolean };
    targetRef: { kind: string; name: string };
  }> | null;
  ports?: Array<{ name: string; port: number; protocol: string }>;
};

describe('simulated EndpointSlices (discovery.k8s.io/v1)', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('a Service with a selector gets a slice of its ready pods, following scaling; it goes with the Service', async () => {
    await c.kubectl.ok(['create', 'deployment', 'slices', '--image=nginx', '--replicas=2', '--port=8080']);
    expect((await c.kubectl(['rollout', 'status', 'deployment/slices', '--timeout=30s'])).code).toBe(0);
    await c.kubectl.ok(['expose', 'deployment', 'slices', '--port=80', '--target-port=8080', '--name=slices']);
    const slices = async (): Promise<Slice[]> =>
      (await c.getJson<{ items: Slice[] }>('endpointslices', '-l', 'kubernetes.io/service-name=slices')).items;
    const [slice] = await waitFor(
      async () => {
        const s = await slices();
        return s.length === 1 && (s[0]!.endpoints ?? []).filter((e) => e.conditions.ready).length === 2 ? s : undefined;
      },
      { what: 'one slice with 2 ready endpoints', timeoutMs: 30_000 },
    );
    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=slices');
    expect((slice!.endpoints ?? []).map((e) => e.addresses[0]).sort()).toEqual(
      pods.map((p) => p.status!.podIP!).sort(),
    );
    expect(slice!.addressType).toBe('IPv4');
    expect(slice!.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    expect(slice!.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBe('endpointslice-controller.k8s.io');
    expect(slice!.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Service', name: 'slices', controller: true }),
    ]);
    await c.kubectl.ok(['scale', 'deployment', 'slices', '--replicas=3']);
    await waitFor(async () => ((await slices())[0]?.endpoints ?? []).filter((e) => e.conditions.ready).length === 3, {
      what: '3 ready endpoints',
      timeoutMs: 30_000,
    });
    await c.kubectl.ok(['scale', 'deployment', 'slices', '--replicas=0']);
    // The real controller keeps one empty slice for a Service that selects nothing (its lists empty,
    // or null as a nil Go slice without omitempty is written).
    await waitFor(
      async () => {
        const s = await slices();
        return s.length === 1 && (s[0]!.endpoints ?? []).length === 0 && (s[0]!.ports ?? []).length === 0;
      },
      { what: 'the empty placeholder slice', timeoutMs: 30_000 },
    );
    await c.kubectl.ok(['delete', 'service', 'slices']);
    await waitFor(async () => (await slices()).length === 0, {
      what: 'slices gone with the Service',
      timeoutMs: 30_000,
    });
    await c.kubectl.ok(['delete', 'deployment', 'slices']);
  });

  it('serves the other kinds controllers watch: StorageClass and EndpointSlice defaulted, ReplicationController scaled', async () => {
    await c.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'fast' },
        provisioner: 'example.com/fast',
      }),
    );
    const sc = await c.getJson<{ reclaimPolicy: string; volumeBindingMode: string }>('storageclass', 'fast');
    expect([sc.reclaimPolicy, sc.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
    await c.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'manual', namespace: 'default' },
        addressType: 'IPv4',
        endpoints: [],
        ports: [{ port: 53 }],
      }),
    );
    expect((await c.getJson<Slice>('endpointslice', 'manual')).ports).toEqual([
      { name: '', port: 53, protocol: 'TCP' },
    ]);
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy', namespace: 'default' },
      spec: {
        template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
    };
    await c.kubectl.ok(['apply', '-f', '-'], JSON.stringify(rc));
    expect((await c.getJson<{ spec: { replicas: number; selector: object } }>('rc', 'legacy')).spec).toEqual(
      expect.objectContaining({ replicas: 1, selector: { app: 'legacy' } }),
    );
    await c.kubectl.ok(['scale', 'rc', 'legacy', '--replicas=4']);
    expect((await c.getJson<{ spec: { replicas: number } }>('rc', 'legacy')).spec.replicas).toBe(4);
    await c.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        metadata: { name: 'nginx' },
        spec: { controller: 'k8s.io/ingress-nginx' },
      }),
    );
    expect(await c.kubectl.ok(['get', 'ingressclass', 'nginx', '-o', 'jsonpath={.spec.controller}'])).toBe(
      'k8s.io/ingress-nginx',
    );
  });
});
