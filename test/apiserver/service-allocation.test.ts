import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { ServiceCidr } from '../../src/apiserver/defaults/service-cidr.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

/** Cluster IPs from the service CIDR and node ports, as kube-apiserver's Service storage hands them out. */
type Svc = {
  metadata: { name: string };
  spec: {
    clusterIP?: string;
    clusterIPs?: string[];
    ports?: Array<{ name?: string; port: number; nodePort?: number; targetPort?: number | string }>;
    ipFamilies?: string[];
    ipFamilyPolicy?: string;
  };
};
type Status = { code: number; message: string; details?: { causes?: Array<{ field: string }> } };

let ts: TestServer;
let kubectl: Kubectl;
const CIDR = new ServiceCidr('10.96.0.0/12');

beforeAll(async () => {
  ts = await startTestServer();
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'svc-alloc-')));
  await kubectl.ok(['create', 'namespace', 'ips']);
});
afterAll(async () => ts?.stop());

const url = (server: ApiServer, name = '') => `${server.url}/api/v1/namespaces/ips/services${name ? `/${name}` : ''}`;

function post(server: ApiServer, name: string, spec: object): Promise<Response> {
  return fetch(url(server), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ metadata: { name }, spec }),
  });
}

async function created(server: ApiServer, name: string, spec: object): Promise<Svc> {
  const r = await post(server, name, spec);
  const body = (await r.json()) as Svc & Status;
  expect(r.status, body.message).toBe(201);
  return body;
}

async function refused(server: ApiServer, name: string, spec: object): Promise<Status> {
  const r = await post(server, name, spec);
  expect(r.status).toBe(422);
  return (await r.json()) as Status;
}

describe('cluster IPs', () => {
  it('the kubernetes Service holds the first address and points at this server', async () => {
    const svc = JSON.parse(await kubectl.ok(['get', 'service', 'kubernetes', '-n', 'default', '-o', 'json'])) as Svc;
    expect(svc.spec.clusterIP).toBe('10.96.0.1');
    expect(svc.spec.clusterIPs).toEqual(['10.96.0.1']);
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 443, protocol: 'TCP', targetPort: ts.server.port }]);
  });

  it('hands out distinct addresses in range, never the first, with single-stack IPv4 families', async () => {
    const services = await Promise.all(
      Array.from({ length: 40 }, (_, i) => created(ts.server, `s${i}`, { ports: [{ port: 80 }] })),
    );
    const ips = services.map((s) => s.spec.clusterIP!);
    expect(new Set(ips).size).toBe(40);
    for (const s of services) {
      expect(CIDR.contains(s.spec.clusterIP!)).toBe(true);
      expect(s.spec.clusterIP).not.toBe('10.96.0.1');
      expect(s.spec.clusterIPs).toEqual([s.spec.clusterIP]);
      expect(s.spec.ipFamilies).toEqual(['IPv4']);
      expect(s.spec.ipFamilyPolicy).toBe('SingleStack');
    }
  });

  it('gives a requested address once, and again after its Service is deleted', async () => {
    await created(ts.server, 'fixed', { clusterIP: '10.96.0.10', ports: [{ port: 80 }] });
    const taken = await refused(ts.server, 'fixed-2', { clusterIP: '10.96.0.10', ports: [{ port: 80 }] });
    expect(taken.message).toBe(
      'Service "fixed-2" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    );
    expect(taken.details!.causes![0]!.field).toBe('spec.clusterIPs');
    expect((await refused(ts.server, 'api', { clusterIP: '10.96.0.1', ports: [{ port: 80 }] })).message).toContain(
      'provided IP is already allocated',
    );
    await kubectl.ok(['delete', 'service', 'fixed', '-n', 'ips']);
    expect(
      (await created(ts.server, 'fixed-2', { clusterIP: '10.96.0.10', ports: [{ port: 80 }] })).spec.clusterIP,
    ).toBe('10.96.0.10');
  });

  it('refuses an address outside the range or not an address, naming the field', async () => {
    const outside = await refused(ts.server, 'out', { clusterIP: '10.0.0.5', ports: [{ port: 80 }] });
    expect(outside.message).toBe(
      'Service "out" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: the provided network does not match the current range',
    );
    expect(
      (await refused(ts.server, 'bcast', { clusterIP: '10.111.255.255', ports: [{ port: 80 }] })).message,
    ).toContain('the provided network does not match the current range');
    const bad = await refused(ts.server, 'bad', { clusterIP: '10.96.0.999', ports: [{ port: 80 }] });
    expect(bad.details!.causes![0]!.field).toBe('spec.clusterIPs[0]');
    expect(bad.message).toContain('must be a valid IP address');
  });

  it('headless and ExternalName Services get no address', async () => {
    const headless = await created(ts.server, 'hl', {
      clusterIP: 'None',
      selector: { app: 'db' },
      ports: [{ port: 5432 }],
    });
    expect(headless.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack' });
    const selectorless = await created(ts.server, 'hl-nosel', { clusterIP: 'None' });
    expect(selectorless.spec.ipFamilyPolicy).toBe('RequireDualStack');
    const ext = await created(ts.server, 'ext', { type: 'ExternalName', externalName: 'example.com' });
    expect(ext.spec.clusterIP).toBeUndefined();
    expect(ext.spec.ipFamilies).toBeUndefined();
  });

  it('an update that leaves the address out keeps it; one that changes it is refused', async () => {
    const svc = await created(ts.server, 'keep', { ports: [{ port: 80 }] });
    // kubectl replace of a manifest without clusterIP (as written by hand).
    await kubectl.ok(
      ['replace', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'keep', namespace: 'ips' },
        spec: { ports: [{ port: 81 }] },
      }),
    );
    const after = JSON.parse(await kubectl.ok(['get', 'service', 'keep', '-n', 'ips', '-o', 'json'])) as Svc;
    expect(after.spec.clusterIP).toBe(svc.spec.clusterIP);
    expect(after.spec.ports![0]!.port).toBe(81);
    const change = await kubectl([
      'patch',
      'service',
      'keep',
      '-n',
      'ips',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { clusterIP: '10.96.0.77', clusterIPs: ['10.96.0.77'] } }),
    ]);
    expect(change.code).not.toBe(0);
    expect(change.stderr).toContain('spec.clusterIPs[0]: Invalid value: ["10.96.0.77"]: may not change once set');
    // Turning it into an ExternalName Service drops the address, which is then free.
    await kubectl.ok([
      'patch',
      'service',
      'keep',
      '-n',
      'ips',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { type: 'ExternalName', externalName: 'example.com' } }),
    ]);
    const ext = JSON.parse(await kubectl.ok(['get', 'service', 'keep', '-n', 'ips', '-o', 'json'])) as Svc;
    expect(ext.spec.clusterIP).toBeUndefined();
    expect(
      (await created(ts.server, 'reuse', { clusterIP: svc.spec.clusterIP, ports: [{ port: 80 }] })).spec.clusterIP,
    ).toBe(svc.spec.clusterIP);
  });
});

describe('node ports', () => {
  it('allocates a free port in 30000-32767 per port, keeps them on update, refuses taken or out-of-range ones', async () => {
    const np = await created(ts.server, 'np', {
      type: 'NodePort',
      ports: [
        { port: 80, name: 'http' },
        { port: 443, name: 'https' },
      ],
    });
    const ports = np.spec.ports!.map((p) => p.nodePort!);
    expect(new Set(ports).size).toBe(2);
    for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
    await kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'np', namespace: 'ips' },
        spec: {
          type: 'NodePort',
          ports: [
            { port: 80, name: 'http' },
            { port: 443, name: 'https' },
          ],
        },
      }),
    );
    const after = JSON.parse(await kubectl.ok(['get', 'service', 'np', '-n', 'ips', '-o', 'json'])) as Svc;
    expect(after.spec.ports!.map((p) => p.nodePort)).toEqual(ports);
    expect(await kubectl.ok(['get', 'service', 'np', '-n', 'ips', '--no-headers'])).toContain(
      `80:${ports[0]}/TCP,443:${ports[1]}/TCP`,
    );

    const taken = await refused(ts.server, 'np2', { type: 'NodePort', ports: [{ port: 80, nodePort: ports[0] }] });
    expect(taken.message).toBe(
      `Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: ${ports[0]}: provided port is already allocated`,
    );
    const low = await refused(ts.server, 'np3', {
      type: 'NodePort',
      ports: [
        { name: 'a', port: 80 },
        { name: 'b', port: 81, nodePort: 8080 },
      ],
    });
    expect(low.details!.causes![0]!.field).toBe('spec.ports[1].nodePort');
    expect(low.message).toContain('provided port is not in the valid range. The range of valid ports is 30000-32767');
  });
});

describe('across a restart and with --service-cidr', () => {
  it('what stored Services hold stays taken after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
    let server = await startApiServer({ port: 0, dataDir: dir });
    const nsType = server.registry.lookup('', 'v1', 'namespaces')!;
    server.objects.create(nsType, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ips' } });
    const first = await created(server, 'a', { ports: [{ port: 80 }] });
    await server.close();
    server = await startApiServer({ port: 0, dataDir: dir });
    try {
      const again = await refused(server, 'b', { clusterIP: first.spec.clusterIP, ports: [{ port: 80 }] });
      expect(again.message).toContain('provided IP is already allocated');
    } finally {
      await server.close();
    }
  });

  it('allocates from the configured range', async () => {
    const small = await startTestServer({ serviceCidr: '192.168.10.0/28' });
    try {
      const nsType = small.server.registry.lookup('', 'v1', 'namespaces')!;
      small.server.objects.create(nsType, undefined, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'ips' },
      });
      const k = (await (
        await fetch(`${small.server.url}/api/v1/namespaces/default/services/kubernetes`)
      ).json()) as Svc;
      expect(k.spec.clusterIP).toBe('192.168.10.1');
      // 16 addresses: network, broadcast and the kubernetes Service's leave 13.
      const ips = new Set<string>();
      // A Service needs a port (kube-apiserver's validation).
      const port = { ports: [{ port: 80 }] };
      for (let i = 0; i < 13; i++) ips.add((await created(small.server, `s${i}`, port)).spec.clusterIP!);
      expect(ips.size).toBe(13);
      for (const ip of ips) expect(new ServiceCidr('192.168.10.0/28').contains(ip)).toBe(true);
      const full = await post(small.server, 'one-too-many', port);
      expect(full.status).toBe(500);
      expect(((await full.json()) as Status).message).toContain('range is full');
    } finally {
      await small.stop();
    }
  });
});
