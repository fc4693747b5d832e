// Distributed queue benchmark: prints figures, asserts nothing.
//   npx tsx bench/queue.ts [--reconciles 20000] [--kills 10] [--skip-flow] [--skip-failover] [--apiserver-process] [--creators 16]
// Needs Redis at REDIS_URL (default redis://127.0.0.1:6379). Everything shares this machine's cores.
//  1. raw BullMQ: N no-op jobs (addBulk, no dedup), 2 Workers × concurrency 50 in this process.
//  2. queue only: N distinct keys through BullQueue (dedup keepLastIfActive, retries, removeOnComplete)
//     with a no-op handler on 2 consumers × 50; add → handler done per key.
//  3. Flow path: the embedded API server and the leader's watches in this process, 2 `flowops worker`
//     processes (--concurrency 32); N Items created over HTTP, a one-step Flow (kubectl apply of a
//     ConfigMap) per Item; create → child ConfigMap seen on a watch. 3b: the same with the queue
//     paused until every Item is created and enqueued (reconcile work alone).
//  4. failover: 2 `flowops run` replicas with lease 3 s / renew 2 s / retry 500 ms; kill -9 the
//     leader, time until the other's flowops_leader gauge is 1; a fresh replica replaces the dead one.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import pino from 'pino';
import { flowCrd } from '../src/api/crd.js';
import { startApiServer } from '../src/apiserver/index.js';
import { KubeClient } from '../src/kube/client.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import type { KubeObject } from '../src/kube/types.js';
import { BullQueue } from '../src/queue/bullmq-queue.js';
import { BullProducer } from '../src/queue/bullmq-producer.js';
import { createRedis, redisUrl } from '../src/queue/redis-connection.js';
import { startLeaderWork } from '../src/runtime/leader-work.js';
import { watchChildren } from './lib/watch-children.js';
import { ITEM_CRD, itemFlow } from './lib/item-flow.js';
import { callJson } from './lib/http-call.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('reconciles', 20_000);
const KILLS = arg('kills', 10);
/** Clients creating Items at once (the offered load of the Flow path). */
const CREATORS = arg('creators', 16);
const APISERVER_PROCESS = process.argv.includes('--apiserver-process');
const log = pino({ level: 'silent' });
const URL_ = redisUrl();
const PREFIX = 'flowops-bench';
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rawBullmq(): Promise<number> {
  const name = `raw-${randomUUID()}`;
  // BullMQ is handed clients (redis-connection.ts); they are disconnected after the queue closes.
  const clients = [createRedis(URL_), createRedis(URL_), createRedis(URL_)];
  const q = new Queue(name, { connection: clients[0]!, prefix: PREFIX });
  q.on('error', () => undefined);
  let done = 0;
  let finished: () => void = () => undefined;
  const all = new Promise<void>((r) => (finished = r));
  const workers = [1, 2].map((c) => {
    const w = new Worker(
      name,
      async () => {
        if (++done === N) finished();
      },
      { connection: clients[c]!, prefix: PREFIX, concurrency: 50 },
    );
    w.on('error', () => undefined);
    return w;
  });
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1000)
    await q.addBulk(
      Array.from({ length: Math.min(1000, N - i) }, (_, j) => ({
        name: 'noop',
        data: { i: i + j },
        opts: { removeOnComplete: true },
      })),
    );
  await all;
  const perSec = N / ((performance.now() - t0) / 1000);
  await Promise.all(workers.map((w) => w.close()));
  await q.obliterate({ force: true });
  await q.close();
  for (const c of clients) c.disconnect();
  return perSec;
}

async function queueOnly(): Promise<{ perSec: number; p50: number; p99: number }> {
  const name = `keys-${randomUUID()}`;
  const a = new BullQueue({ redisUrl: URL_, name, prefix: PREFIX, log });
  const b = new BullQueue({ redisUrl: URL_, name, prefix: PREFIX, log });
  const sent = new Map<string, number>();
  const lat: number[] = [];
  let finished: () => void = () => undefined;
  const all = new Promise<void>((r) => (finished = r));
  const handler = async (key: string) => {
    lat.push(performance.now() - sent.get(key)!);
    if (lat.length === N) finished();
  };
  a.start(handler, { concurrency: 50 });
  b.start(handler, { concurrency: 50 });
  await a.producer.queue.waitUntilReady();
  const t0 = performance.now();
  // Like informer events: one add per key, at most 200 in flight.
  for (let i = 0; i < N; i += 200) {
    const batch = Array.from({ length: Math.min(200, N - i) }, (_, j) => `default/bench/${i + j}`);
    for (const k of batch) sent.set(k, performance.now());
    await a.producer.addAll(batch);
  }
  await all;
  const perSec = N / ((performance.now() - t0) / 1000);
  await b.consumer.stop();
  await a.consumer.stop();
  await a.producer.queue.obliterate({ force: true });
  await a.producer.close();
  await b.producer.close();
  return { perSec, p50: pct(lat, 50), p99: pct(lat, 99) };
}

let agent = new Agent({ keepAlive: true, maxSockets: CREATORS });
const call = (url: string, method: string, body?: unknown): Promise<number> => callJson(agent, url, method, body);

function flowops(args: string[]): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, [join(import.meta.dirname, '../bin/flowops.js'), ...args], {
    env: { ...process.env, FLOWOPS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out };
}

async function metricsOf(p: { out: () => string }): Promise<string> {
  for (;;) {
    const m = /metrics listening on (http:\/\/\S+)\/metrics/.exec(p.out());
    if (m) return m[1]!;
    await sleep(50);
  }
}

/** The API server in this process, or with --apiserver-process as `flowops apiserver` (as kube-apiserver runs apart from its clients). */
async function apiServer(dataDir: string, kubeconfig: string): Promise<{ base: string; close: () => Promise<void> }> {
  if (!APISERVER_PROCESS) {
    const server = await startApiServer({ port: 0, dataDir });
    writeKubeconfig(kubeconfig, server.url);
    return { base: server.url, close: () => server.close() };
  }
  const p = flowops(['apiserver', '--listen', '127.0.0.1:0', '--data', dataDir, '--kubeconfig', kubeconfig]);
  for (;;) {
    const m = /listening on (http:\/\/\S+)/.exec(p.out());
    if (m) return { base: m[1]!, close: async () => void process.kill(-p.child.pid!, 'SIGKILL') };
    await sleep(50);
  }
}

/**
 * live: Items are created while the workers run; the rate includes the creates (the load
 * generator shares this process and the API server's thread).
 * backlog: the queue is paused while the N Items are created and enqueued, then resumed; the
 * rate is the reconcile work alone (as a controller catching up after a restart), latency is
 * resume → child.
 */
async function flowPath(
  mode: 'live' | 'backlog',
): Promise<{ perSec: number; p50: number; p99: number; done: number; elapsed: number }> {
  agent = new Agent({ keepAlive: true, maxSockets: CREATORS });
  const dir = mkdtempSync(join(tmpdir(), 'bench-queue-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const { base, close: closeServer } = await apiServer(join(dir, 'data'), kubeconfig);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  const name = `flow-${randomUUID()}`;
  const producer = new BullProducer({ redisUrl: URL_, name, prefix: PREFIX, log });
  const workers = [0, 1].map(() =>
    flowops([
      'worker',
      '--kubeconfig',
      kubeconfig,
      '--queue',
      name,
      '--redis-prefix',
      PREFIX,
      '--concurrency',
      '32',
      '--metrics-listen',
      '127.0.0.1:0',
    ]),
  );
  try {
    await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'bench', force: true });
    await call(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, 'POST', ITEM_CRD);
    await call(
      `${base}/apis/flowops.io/v1/namespaces/default/flows`,
      'POST',
      itemFlow('default', { clusterWide: true }),
    );
    const leader = await startLeaderWork({ kube, log, producer }, new AbortController().signal);
    await Promise.all(workers.map(metricsOf));
    await sleep(1500);
    const { childAt, close: closeWatch } = watchChildren(base);
    const sent = new Map<number, number>();
    if (mode === 'backlog') await producer.queue.pause();
    let t1 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CREATORS }, async () => {
        while (next < N) {
          const i = next++;
          sent.set(i, performance.now());
          await call(`${base}/apis/bench.flowops.io/v1/namespaces/default/items`, 'POST', {
            apiVersion: 'bench.flowops.io/v1',
            kind: 'Item',
            metadata: { name: `item-${i}` },
            spec: { size: i },
          });
        }
      }),
    );
    if (mode === 'backlog') {
      while ((await producer.queue.getWaitingCount()) < N) await sleep(50);
      t1 = performance.now();
      for (const i of sent.keys()) sent.set(i, t1);
      await producer.queue.resume();
    }
    const deadline = Date.now() + 600_000;
    while (childAt.size < N && Date.now() < deadline) await sleep(50);
    const elapsed = (performance.now() - t1) / 1000;
    const lat = [...childAt].map(([i, at]) => at - sent.get(i)!);
    closeWatch();
    await leader.stop();
    return { perSec: childAt.size / elapsed, p50: pct(lat, 50), p99: pct(lat, 99), done: childAt.size, elapsed };
  } finally {
    for (const w of workers) {
      try {
        process.kill(-w.child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await producer.queue.obliterate({ force: true }).catch(() => undefined);
    await producer.close();
    kube.rest.close();
    agent.destroy();
    await closeServer();
  }
}

async function gauge(base: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(1000) })).text();
    const m = /^flowops_leader\{[^}]*\} (\d+)/m.exec(text);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function failover(): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-failover-'));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'bench', force: true });
  const args = [
    'run',
    '--kubeconfig',
    kubeconfig,
    '--queue',
    `failover-${randomUUID()}`,
    '--redis-prefix',
    PREFIX,
    '--metrics-listen',
    '127.0.0.1:0',
    '--lease-namespace',
    'default',
    '--lease-name',
    'bench',
    '--lease-duration',
    '3s',
    '--renew-deadline',
    '2s',
    '--retry-period',
    '500ms',
  ];
  const replicas = await Promise.all(
    [0, 1].map(async () => {
      const p = flowops(args);
      return { p, base: await metricsOf(p) };
    }),
  );
  const times: number[] = [];
  try {
    for (let k = 0; k < KILLS; k++) {
      let leaderIdx = -1;
      while (leaderIdx < 0) {
        const g = await Promise.all(replicas.map((r) => gauge(r.base)));
        leaderIdx = g.indexOf(1);
        if (leaderIdx < 0) await sleep(50);
      }
      // Let the lease be renewed a few times, as in steady state.
      await sleep(1200);
      const dead = replicas[leaderIdx]!;
      const other = replicas[1 - leaderIdx]!;
      const t0 = performance.now();
      process.kill(-dead.p.child.pid!, 'SIGKILL');
      while ((await gauge(other.base)) !== 1) await sleep(20);
      times.push(performance.now() - t0);
      const fresh = flowops(args);
      replicas[leaderIdx] = { p: fresh, base: await metricsOf(fresh) };
    }
  } finally {
    for (const r of replicas) {
      try {
        process.kill(-r.p.child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
    kube.rest.close();
    await server.close();
  }
  return times;
}

console.log(
  `FlowOps queue benchmark: ${N} reconciles, Redis ${URL_}, 2 workers, API server ${APISERVER_PROCESS ? 'in its own process' : 'in this process'}`,
);
const raw = await rawBullmq();
console.log(`1. raw BullMQ no-op jobs (addBulk, 2 Workers × 50):           ${raw.toFixed(0)} jobs/s`);
const q = await queueOnly();
console.log(
  `2. queue only, no-op handler (BullQueue: dedup, retries, 2 × 50): ${q.perSec.toFixed(0)} reconciles/s (${(q.perSec / raw).toFixed(2)} × raw); add → done p50 ${q.p50.toFixed(0)} ms, p99 ${q.p99.toFixed(0)} ms`,
);
if (!process.argv.includes('--skip-flow')) {
  const f = await flowPath('live');
  console.log(
    `3. Flow path, live (API server + leader + 2 worker processes × 32): ${f.perSec.toFixed(0)} reconciles/s (${(f.perSec / raw).toFixed(2)} × raw); ${f.done}/${N} done in ${f.elapsed.toFixed(1)} s; create → child p50 ${f.p50.toFixed(0)} ms, p99 ${f.p99.toFixed(0)} ms`,
  );
  const b = await flowPath('backlog');
  console.log(
    `3b. Flow path, backlog of ${N} (creates done first, then the queue resumed): ${b.perSec.toFixed(0)} reconciles/s (${(b.perSec / raw).toFixed(2)} × raw); ${b.done}/${N} done in ${b.elapsed.toFixed(1)} s; resume → child p50 ${b.p50.toFixed(0)} ms, p99 ${b.p99.toFixed(0)} ms`,
  );
}
if (!process.argv.includes('--skip-failover')) {
  const t = await failover();
  console.log(
    `4. failover over ${t.length} leader kills (lease 3 s, renew 2 s, retry 500 ms): median ${pct(t, 50).toFixed(0)} ms, max ${Math.max(...t).toFixed(0)} ms, min ${Math.min(...t).toFixed(0)} ms`,
  );
}
process.exit(0);
