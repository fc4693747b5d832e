import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';
import { cachedBinDir } from './control-plane-paths.js';

/**
 * The real kube-controller-manager v1.34.4, with its default flags (all controllers, leader election on, client-go's
 * protobuf for every built-in kind), against the embedded API server. It has to read and write every kind it
 * touches in protobuf: ReplicaSets from a Deployment, Pods from a Job, EndpointSlices for a Service, Events, its
 * leader-election Lease, metadata-only informers for the garbage collector.
 */

const bin = cachedBinDir();
const kcm = bin && join(bin, 'kube-controller-manager');
const haveKcm = !!kcm && existsSync(kcm);
if (!haveKcm)
  console.warn(
    'controllers-on-embedded: skipped, no kube-controller-manager in the control-plane cache ' +
      '(scripts/control-plane/build.sh)',
  );

/** Lines in KCM's log that mean the server refused or could not read what client-go sent or asked for. */
const WIRE_TROUBLE = [
  /no protobuf decoder/,
  /unknown format/,
  /cannot be handled as/,
  /does not implement the protobuf/,
  /unexpected EOF/,
  /proto: /,
];

/** A list or watch of a resource that is not served (client-go's reflector and discovery lines). */
const MISSING_RESOURCE =
  /could not find the requested resource|server doesn't have a resource type|failed to list \*v1/;
/** Resources KCM lists that the embedded server does not serve yet, each with its reason (none left). */
const KNOWN_MISSING: ReadonlyArray<{ line: RegExp; reason: string }> = [];

type Obj = {
  metadata: {
    name: string;
    managedFields?: Array<{ manager: string }>;
    ownerReferences?: Array<{ kind: string; name: string }>;
    labels?: Record<string, string>;
  };
} & Record<string, unknown>;

describe.skipIf(!haveKcm)('kube-controller-manager on the embedded API server', () => {
  let ts: TestServer;
  let proc: ChildProcess;
  let logFile: string;
  const NS = 'kcm';
  const url = (p: string): string => `${ts.server.url}${p}`;
  const post = async (p: string, body: unknown): Promise<void> => {
    const r = await fetch(url(p), {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, await r.clone().text()).toBe(201);
  };
  const items = async (p: string): Promise<Obj[]> =>
    ((await (await fetch(url(p))).json()) as { items?: Obj[] }).items ?? [];
  const log = (): string => readFileSync(logFile, 'utf8');

  beforeAll(async () => {
    ts = await startTestServer();
    logFile = join(ts.dir, 'kube-controller-manager.log');
    const out = openSync(logFile, 'a');
    // Default flags but the kubeconfig, and no serving port of its own (several runs share the machine).
    proc = spawn(kcm!, [`--kubeconfig=${ts.kubeconfig}`, '--secure-port=0', '--v=2'], { stdio: ['ignore', out, out] });
    await post('/api/v1/namespaces', { metadata: { name: NS } });
    // Leader election through a coordination.k8s.io/v1 Lease written in protobuf: nothing runs before it.
    await waitFor(
      async () =>
        (await fetch(url('/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager')))
          .status === 200,
      {
        timeoutMs: 90_000,
        what: `kube-controller-manager to hold its leader Lease (log: ${logFile})`,
      },
    );
  });

  afterAll(async () => {
    proc?.kill('SIGTERM');
    if (proc && proc.exitCode === null) await new Promise((r) => proc.once('exit', r));
    await ts?.stop();
  });

  const labels = { app: 'web' };
  const template = { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } };

  it('creates a ReplicaSet for a Deployment, and the Pods for it', async () => {
    await post(`/apis/apps/v1/namespaces/${NS}/deployments`, {
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: labels }, template },
    });
    const rs = await waitFor(
      async () =>
        (await items(`/apis/apps/v1/namespaces/${NS}/replicasets`)).find(
          (r) => r.metadata.ownerReferences?.[0]?.name === 'web',
        ),
      {
        timeoutMs: 60_000,
        what: 'a ReplicaSet owned by Deployment web',
      },
    );
    expect(rs.metadata.ownerReferences?.[0]?.kind).toBe('Deployment');
    // Written by the controller-manager itself (its field manager), not by anything in the embedded server.
    expect(rs.metadata.managedFields?.map((m) => m.manager)).toContain('kube-controller-manager');
    const pods = await waitFor(
      async () => {
        const owned = (await items(`/api/v1/namespaces/${NS}/pods`)).filter(
          (p) => p.metadata.ownerReferences?.[0]?.name === rs.metadata.name,
        );
        return owned.length === 2 ? owned : undefined;
      },
      { timeoutMs: 60_000, what: `two Pods owned by ReplicaSet ${rs.metadata.name}` },
    );
    expect(pods).toHaveLength(2);
  });

  it('creates a Pod for a Job', async () => {
    await post(`/apis/batch/v1/namespaces/${NS}/jobs`, {
      metadata: { name: 'once' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const pod = await waitFor(
      async () =>
        (await items(`/api/v1/namespaces/${NS}/pods`)).find((p) => p.metadata.ownerReferences?.[0]?.kind === 'Job'),
      {
        timeoutMs: 60_000,
        what: 'a Pod owned by Job once',
      },
    );
    expect(pod.metadata.ownerReferences?.[0]?.name).toBe('once');
    expect(pod.metadata.managedFields?.map((m) => m.manager)).toContain('kube-controller-manager');
  });

  it('creates an EndpointSlice for a Service', async () => {
    await post(`/api/v1/namespaces/${NS}/services`, {
      metadata: { name: 'web' },
      spec: { selector: labels, ports: [{ port: 80 }] },
    });
    const slice = await waitFor(
      async () =>
        (await items(`/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`)).find(
          (s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'web',
        ),
      {
        timeoutMs: 60_000,
        what: 'an EndpointSlice for Service web',
      },
    );
    expect(slice.metadata.ownerReferences?.[0]?.kind).toBe('Service');
    expect(slice.metadata.managedFields?.map((m) => m.manager)).toContain('kube-controller-manager');
  });

  it('writes ControllerRevisions (raw JSON data) and Pods for a StatefulSet', async () => {
    await post(`/apis/apps/v1/namespaces/${NS}/statefulsets`, {
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { ...template, metadata: { labels: { app: 'db' } } },
      },
    });
    const rev = await waitFor(
      async () =>
        (await items(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).find(
          (r) => r.metadata.ownerReferences?.[0]?.name === 'db',
        ),
      {
        timeoutMs: 60_000,
        what: 'a ControllerRevision owned by StatefulSet db',
      },
    );
    expect((rev.data as { spec?: { template?: unknown } }).spec?.template).toBeDefined();
    await waitFor(async () => (await fetch(url(`/api/v1/namespaces/${NS}/pods/db-0`))).status === 200, {
      timeoutMs: 60_000,
      what: 'Pod db-0',
    });
  });

  it('collects the garbage of a deleted Deployment through its metadata informers', async () => {
    await post(`/apis/apps/v1/namespaces/${NS}/deployments`, {
      metadata: { name: 'gone' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'gone' } },
        template: { ...template, metadata: { labels: { app: 'gone' } } },
      },
    });
    const owned = async (): Promise<Obj[]> =>
      (await items(`/apis/apps/v1/namespaces/${NS}/replicasets`)).filter(
        (r) => r.metadata.ownerReferences?.[0]?.name === 'gone',
      );
    await waitFor(async () => ((await owned()).length ? true : undefined), {
      timeoutMs: 60_000,
      what: 'a ReplicaSet owned by Deployment gone',
    });
    const del = await fetch(url(`/apis/apps/v1/namespaces/${NS}/deployments/gone`), { method: 'DELETE' });
    expect(del.status).toBe(200);
    await waitFor(async () => ((await owned()).length === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'the garbage collector to delete ReplicaSets of Deployment gone',
    });
  });

  it('records Events', async () => {
    const events = await waitFor(
      async () => {
        const all = [...(await items(`/api/v1/namespaces/${NS}/events`))];
        return all.some((e) => e.reason === 'ScalingReplicaSet') && all.some((e) => e.reason === 'SuccessfulCreate')
          ? all
          : undefined;
      },
      { timeoutMs: 60_000, what: 'ScalingReplicaSet and SuccessfulCreate Events' },
    );
    expect(events.length).toBeGreaterThan(1);
  });

  it('logs no list or watch of a resource the server does not serve', () => {
    const missing = log()
      .split('\n')
      .filter((l) => MISSING_RESOURCE.test(l));
    console.log(`kube-controller-manager: ${missing.length} lines about a missing resource`);
    const unexplained = missing.filter((l) => !KNOWN_MISSING.some((k) => k.line.test(l)));
    expect(unexplained.slice(0, 20), 'lines about a resource the server does not serve').toEqual([]);
  });

  it('logs no refused body, no undecodable answer', () => {
    // The log is KCM's own: it started its controllers against this server.
    expect(log()).toMatch(/Started controller|Starting controller/);
    const bad = log()
      .split('\n')
      .filter((l) => WIRE_TROUBLE.some((re) => re.test(l)));
    expect(bad, 'lines about the wire format in the log').toEqual([]);
  });
});
