// Workload simulator benchmark: prints figures, asserts nothing.
//   npx tsx bench/simulator.ts [--replicas 100] [--pod-start-ms 200]
// One process, as `flowops up` runs it: the embedded API server and the simulator as its HTTP client.
// Figures: how long a Deployment of N replicas takes until `availableReplicas` = N (the wait
// `kubectl rollout status` does), a StatefulSet of N (Parallel) and of 10 (OrderedReady), and how
// many writes the simulator made (watch events per kind, counted once the watches have drained).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startApiServer } from '../src/apiserver/index.js';
import { KubeClient } from '../src/kube/client.js';
import { Informer } from '../src/kube/informer.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import type { KubeObject } from '../src/kube/types.js';
import { startSimulator } from '../src/simulator/simulator.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('replicas', 100);
const POD_START_MS = arg('pod-start-ms', 200);

const log = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'flowops-bench-sim-'));
const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
writeKubeconfig(join(dir, 'kubeconfig'), server.url);
const kube = KubeClient.fromKubeconfig(join(dir, 'kubeconfig'));
const simulator = await startSimulator({ kube, log, podStartMs: POD_START_MS });

const events = new Map<string, number>();
const count = (kind: string) => () => events.set(kind, (events.get(kind) ?? 0) + 1);
const watchers = ['Pod', 'ReplicaSet', 'Deployment', 'StatefulSet'].map((kind) => {
  const w = new Informer(
    kube,
    { apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, log },
    { add: count(kind), update: count(kind), delete: count(kind) },
  );
  w.start();
  return w;
});

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

async function timeUntilAvailable(obj: KubeObject, field: string, want = N): Promise<number> {
  const t0 = performance.now();
  await kube.create(obj);
  for (;;) {
    const got = await kube.get({
      apiVersion: 'apps/v1',
      kind: obj.kind,
      namespace: 'default',
      name: obj.metadata.name!,
    });
    if ((got?.status as Record<string, number> | undefined)?.[field] === want) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const deployMs = await timeUntilAvailable(
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: N, selector: { matchLabels: { app: 'web' } }, template: template('web') },
  },
  'availableReplicas',
);
// The counting watches lag behind the simulator's own: let them drain before reading the counts.
async function drained(): Promise<void> {
  let last = -1;
  for (;;) {
    const total = [...events.values()].reduce((a, b) => a + b, 0);
    if (total === last) return;
    last = total;
    await new Promise((r) => setTimeout(r, 500));
  }
}
await drained();
const deployEvents = Object.fromEntries(events);
events.clear();
const stsMs = await timeUntilAvailable(
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      replicas: N,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'db' } },
      template: template('db'),
    },
  },
  'readyReplicas',
);
await drained();
const stsEvents = Object.fromEntries(events);
const orderedN = Math.min(N, 10);
const orderedMs = await timeUntilAvailable(
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'ordered', namespace: 'default' },
    spec: { replicas: orderedN, selector: { matchLabels: { app: 'ordered' } }, template: template('ordered') },
  },
  'readyReplicas',
  orderedN,
);

process.stdout.write(
  [
    `pod start delay ${POD_START_MS} ms`,
    `Deployment ${N} replicas: available after ${deployMs.toFixed(0)} ms; watch events ${JSON.stringify(deployEvents)} (${((deployEvents.Pod ?? 0) / N).toFixed(1)} writes per pod: create, scheduled, running; scheduled is skipped when the delay has passed by the time the kubelet loop gets to the pod)`,
    `StatefulSet ${N} replicas (Parallel): ready after ${stsMs.toFixed(0)} ms; watch events ${JSON.stringify(stsEvents)}`,
    `StatefulSet ${orderedN} replicas (OrderedReady, one pod after the other): ready after ${orderedMs.toFixed(0)} ms`,
    '',
  ].join('\n'),
);
await Promise.all(watchers.map((w) => w.stop()));
await simulator.stop();
await server.close();
