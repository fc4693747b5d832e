import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { flowCrd } from '../../src/api/crd.js';
import { flowSourceCrd } from '../../src/api/flowsource-crd.js';
import type { KubeObject } from '../../src/kube/types.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { flowSource } from '../gitops/fixtures.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, stopGracefully, type Proc } from './processes.js';

// Cluster mode GitOps across real processes: the leader (`flowops run`) clones the FlowSource into
// its --data dir and applies the Flow; a worker (`flowops worker`) with a different --data dir —
// another pod, another disk — must fetch the Flow's commit itself to render the Flow's relative
// kustomize path.

const LEASE = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
const SOURCE = 'ops';
const BASE = 'greeting/base';

const cluster = apiServerFixture(async (kube) => {
  for (const crd of [flowCrd(), flowSourceCrd()])
    await kube.apply(crd as unknown as KubeObject, { fieldManager: 'test', force: true });
});
let gitServer: GitServer;
const dirs: string[] = [];

beforeAll(async () => {
  gitServer = await startGitServer();
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(async () => {
  await gitServer?.stop();
});

/** The Flow kept in Git: its only step renders a kustomize base by a path relative to the commit. */
const flowYaml = (step: string): string => `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: greeter
spec:
  watch:
    apiVersion: example.com/v1
    kind: Widget
  reconcile:
    steps:
      - name: ${step}
        type: template
        engine: kustomize
        path: ${BASE}
`;

const kustomization = (greeting: string): string => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
configMapGenerator:
  - name: greeting
    literals:
      - GREETING=${greeting}
generatorOptions:
  disableNameSuffixHash: true
`;

const widgetYaml = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
spec:
  size: 1
`;

const tmp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

const exportOf = (dataDir: string, sha: string): string => join(dataDir, 'default', SOURCE, 'exports', sha);

async function flowRevision(): Promise<Record<string, string> | undefined> {
  const f = await cluster
    .kube()
    .get({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: 'greeter' });
  return f?.metadata.annotations;
}

async function greeting(): Promise<KubeObject | undefined> {
  return cluster.kube().get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'greeting' });
}

const EXPORTED = '"msg":"exported the commit a Flow came from"';
const exportLines = (p: Proc): Array<Record<string, unknown>> =>
  p
    .stderr()
    .split('\n')
    .filter((l) => l.includes(EXPORTED))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('cluster mode GitOps: leader and worker with separate data dirs', () => {
  it("the worker fetches and exports the Flow's commit itself and renders its relative kustomize path, commit after commit", async () => {
    const t0 = Date.now();
    const repo = gitServer.repo(SOURCE);
    const sha1 = await repo.commit({
      'crd.yaml': WIDGET_CRD,
      'flow.yaml': flowYaml('render'),
      'widget.yaml': widgetYaml,
      [`${BASE}/kustomization.yaml`]: kustomization('hello'),
    });

    const leaderData = tmp('flowops-leader-data-');
    const workerData = tmp('flowops-worker-data-');
    const queue = `gitops-cluster-${randomUUID()}`;
    const common = [
      '--kubeconfig',
      cluster.kubeconfig(),
      '--metrics-listen',
      '127.0.0.1:0',
      '--queue',
      queue,
      '--redis-prefix',
      'flowops-test',
    ];
    const leader = cluster.track(
      spawnFlowops('run', [
        'run',
        ...common,
        '--data',
        leaderData,
        '--lease-namespace',
        'default',
        '--lease-name',
        `g-${randomUUID().slice(0, 8)}`,
        ...LEASE,
      ]),
    );
    const worker = cluster.track(
      spawnFlowops('worker', [
        'worker',
        ...common,
        '--data',
        workerData,
        '--concurrency',
        '2',
        '--lock-duration',
        '2s',
        '--stalled-interval',
        '1s',
      ]),
    );
    const [, workerMetrics] = await Promise.all([metricsAddressOf(leader), metricsAddressOf(worker)]);
    await waitFor(async () => (await fetch(`${workerMetrics}/readyz`)).status === 200, {
      what: `worker ready (stderr: ${worker.stderr().slice(-2000)})`,
      timeoutMs: 20_000,
    });
    await waitFor(() => leader.stderr().includes('"msg":"became leader"'), {
      what: `the run process leading (stderr: ${leader.stderr().slice(-2000)})`,
      timeoutMs: 20_000,
    });

    // A short interval is the leader's poll: the second commit is picked up without a trigger.
    await cluster.kube().create(flowSource(SOURCE, repo.url, { interval: '1s' }));

    // 1. The leader applies the Flow from Git with provenance…
    await waitFor(async () => (await flowRevision())?.['flowops.io/revision'] === `main@sha1:${sha1}`, {
      what: `Flow greeter applied from ${sha1} (leader stderr: ${leader.stderr().slice(-2000)})`,
      timeoutMs: 20_000,
    });
    expect(await flowRevision()).toMatchObject({
      'flowops.io/source': `default/${SOURCE}`,
      'flowops.io/path': 'flow.yaml',
    });
    // …and the worker renders the relative path from its own export of that commit.
    const cm1 = await waitFor(
      async () => {
        const cm = await greeting();
        return (cm?.data as Record<string, string> | undefined)?.GREETING === 'hello' ? cm : undefined;
      },
      {
        what: `ConfigMap greeting rendered by the worker (worker stderr: ${worker.stderr().slice(-3000)})`,
        timeoutMs: 20_000,
      },
    );
    expect(cm1.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Widget', name: 'w1' });
    const firstRender = Date.now() - t0;

    // Two clones, one per process, each with its own export of the commit.
    for (const data of [workerData, leaderData]) {
      expect(readFileSync(join(exportOf(data, sha1), BASE, 'kustomization.yaml'), 'utf8')).toBe(kustomization('hello'));
      expect(existsSync(join(data, 'default', SOURCE, 'repo', '.git', 'HEAD'))).toBe(true);
    }
    // 3. The worker logged its export (the leader never does: it syncs, it does not fetch for Flows).
    await waitFor(() => exportLines(worker).some((l) => l.revision === sha1), {
      what: 'worker log line for the first export',
    });
    expect(exportLines(worker).find((l) => l.revision === sha1)).toMatchObject({
      source: `default/${SOURCE}`,
      revision: sha1,
      part: 'sources',
      command: 'worker',
    });
    expect(exportLines(leader)).toEqual([]);

    // 2. A commit that changes the base and the Flow's spec: the Flow moves to the new revision
    // (an unchanged Flow file keeps the revision that applied it; a spec change also re-runs
    // every watched object), and the worker fetches the new commit to render it.
    const sha2 = await repo.commit({
      'flow.yaml': flowYaml('render-v2'),
      [`${BASE}/kustomization.yaml`]: kustomization('bonjour'),
    });
    const t1 = Date.now();
    await waitFor(async () => (await flowRevision())?.['flowops.io/revision'] === `main@sha1:${sha2}`, {
      what: `Flow greeter applied from ${sha2}`,
      timeoutMs: 20_000,
    });
    await waitFor(
      async () => ((await greeting())?.data as Record<string, string> | undefined)?.GREETING === 'bonjour',
      {
        what: `ConfigMap greeting re-rendered from ${sha2} (worker stderr: ${worker.stderr().slice(-3000)})`,
        timeoutMs: 20_000,
      },
    );
    const secondRender = Date.now() - t1;
    expect(readFileSync(join(exportOf(workerData, sha2), BASE, 'kustomization.yaml'), 'utf8')).toBe(
      kustomization('bonjour'),
    );
    expect(readFileSync(join(exportOf(leaderData, sha2), BASE, 'kustomization.yaml'), 'utf8')).toBe(
      kustomization('bonjour'),
    );
    await waitFor(() => exportLines(worker).some((l) => l.revision === sha2), {
      what: 'worker log line for the second export',
    });
    expect(exportLines(worker).find((l) => l.revision === sha2)).toMatchObject({
      source: `default/${SOURCE}`,
      revision: sha2,
    });

    // 3. A commit that changes only the kustomize base, not the Flow file: the Flow still moves to
    // it (a changed input re-applies the revision) and its watched objects run again against it.
    const sha3 = await repo.commit({ [`${BASE}/kustomization.yaml`]: kustomization('hallo') });
    await waitFor(async () => (await flowRevision())?.['flowops.io/revision'] === `main@sha1:${sha3}`, {
      what: `Flow greeter moved to ${sha3}`,
      timeoutMs: 20_000,
    });
    await waitFor(async () => ((await greeting())?.data as Record<string, string> | undefined)?.GREETING === 'hallo', {
      what: `ConfigMap greeting re-rendered from ${sha3} (worker stderr: ${worker.stderr().slice(-3000)})`,
      timeoutMs: 20_000,
    });
    // Each commit is fetched and exported once, however many reconciles used it.
    expect(exportLines(worker).map((l) => l.revision)).toEqual([sha1, sha2, sha3]);

    // SIGTERM: both stop cleanly.
    for (const p of [worker, leader]) expect(await stopGracefully(p)).toEqual({ code: 0, signal: null });
    console.log(
      `gitops-cluster: first render ${firstRender} ms after start, second ${secondRender} ms after the push, total ${Date.now() - t0} ms`,
    );
  });
});
