// Sharded `flowops run` benchmark: prints figures, asserts nothing.
//   npx tsx bench/shards.ts [--objects 2000] [--setups 1,2,4]
// Needs Redis at REDIS_URL (default redis://127.0.0.1:6379). Everything shares this machine's cores.
// Per setup, a fresh `flowops apiserver` process holds N Items (created first), a one-step Flow
// (kubectl apply of a ConfigMap per Item) and 2 `flowops worker` processes (--concurrency 32);
// then R `flowops run` replicas start with the queue paused:
//   watch → queue: replicas spawned → every Item's key waiting in BullMQ (list + watch + enqueue,
//     the part sharding splits); keys/s.
//   reconciles: queue resumed → every child ConfigMap seen on a watch; reconciles/s (the workers'
//     part, the same 2 workers in every setup).
//   RSS per replica (process_resident_memory_bytes) and Items cached per replica (N / R).
// The baseline is R = 1 without --shards (today's one leader), in the same run.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { flowCrd } from '../src/api/crd.js';
import { KubeClient } from '../src/kube/client.js';
import type { KubeObject } from '../src/kube/types.js';
import { BullProducer } from '../src/queue/bullmq-producer.js';
import { redisUrl } from '../src/queue/redis-connection.js';
import { checkRedis } from '../src/cli/cluster-flags.js';
import { callJson } from './lib/http-call.js';
import { watchChildren } from './lib/watch-children.js';
import { itemFlow } from './lib/item-flow.js';

const argOf = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
};
const N = Number(argOf('objects', '2000'));
const SETUPS = argOf('setups', '1,2,4').split(',').map(Number);
const PREFIX = 'flowops-bench';
const URL_ = redisUrl();
const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  out(): string;
  kill(): void;
}

function flowops(args: string[]): Proc {
  const child = spawn(process.execPath, [join(import.meta.dirname, '../bin/flowops.js'), ...args], {
    env: { ...process.env, FLOWOPS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    out: () => out,
    kill: () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    },
  };
}

async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 600_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(20);
  }
}

const metricsOf = (p: Proc): Promise<string> =>
  until('a metrics address', () => /metrics listening on (http:\/\/\S+)\/metrics/.exec(p.out())?.[1]);

async function rssOf(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}

interface Figures {
  replicas: number;
  shards: number;
  enqueuePerSec: number;
  enqueueS: number;
  reconcilesPerSec: number;
  reconcileS: number;
  rssMiB: number[];
}

async function setup(replicas: number): Promise<Figures> {
  const shards = replicas === 1 ? 1 : replicas;
  const dir = mkdtempSync(join(tmpdir(), 'bench-shards-'));
  const api = flowops(['apiserver', '--listen', '127.0.0.1:0', '--data', join(dir, 'data')]);
  const procs: Proc[] = [api];
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const base = await until('the API server', () => /listening on (http:\/\/\S+)/.exec(api.out())?.[1], 60_000);
    await until('its kubeconfig', () => (/kubeconfig: /.test(api.out()) ? true : undefined), 60_000);
    const kubeconfig = join(dir, 'data', 'kubeconfig');
    const kube = KubeClient.fromKubeconfig(kubeconfig);
    const call = (path: string, body: unknown): Promise<number> => callJson(agent, `${base}${path}`, 'POST', body);
    await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'bench', force: true });
    await call('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'items.bench.flowops.io' },
      spec: {
        group: 'bench.flowops.io',
        scope: 'Namespaced',
        names: { kind: 'Item', plural: 'items', singular: 'item' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    await until(
      'Item served',
      () =>
        kube.list('bench.flowops.io/v1', 'Item').then(
          () => true,
          () => undefined,
        ),
      30_000,
    );
    await call('/apis/flowops.io/v1/namespaces/default/flows', itemFlow('default', { clusterWide: true }));
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < N) {
          const i = next++;
          await call('/apis/bench.flowops.io/v1/namespaces/default/items', {
            apiVersion: 'bench.flowops.io/v1',
            kind: 'Item',
            metadata: { name: `item-${i}` },
            spec: { size: i },
          });
        }
      }),
    );
    const queue = `shards-${randomUUID()}`;
    const producer = new BullProducer({ redisUrl: URL_, name: queue, prefix: PREFIX, log });
    await producer.queue.pause();
    const common = [
      '--kubeconfig',
      kubeconfig,
      '--queue',
      queue,
      '--redis-prefix',
      PREFIX,
      '--metrics-listen',
      '127.0.0.1:0',
    ];
    const workers = [0, 1].map(() => flowops(['worker', ...common, '--concurrency', '32']));
    procs.push(...workers);
    await Promise.all(workers.map(metricsOf));
    const { childAt, close } = watchChildren(base);
    const lease = ['--lease-namespace', 'default', '--lease-name', `bench-${randomUUID().slice(0, 8)}`];
    const timing = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
    const t0 = performance.now();
    const runs = Array.from({ length: replicas }, () =>
      flowops(['run', ...common, '--no-ui', ...lease, ...timing, ...(shards > 1 ? ['--shards', String(shards)] : [])]),
    );
    procs.push(...runs);
    await until('every key queued', async () => ((await producer.queue.getWaitingCount()) >= N ? true : undefined));
    const enqueueS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    await producer.queue.resume();
    await until('every child', () => (childAt.size >= N ? true : undefined));
    const reconcileS = (performance.now() - t1) / 1000;
    close();
    const rssMiB = await Promise.all(runs.map(async (r) => (await rssOf(await metricsOf(r))) / 2 ** 20));
    await producer.queue.obliterate({ force: true }).catch(() => undefined);
    await producer.close();
    kube.rest.close();
    return {
      replicas,
      shards,
      enqueuePerSec: N / enqueueS,
      enqueueS,
      reconcilesPerSec: N / reconcileS,
      reconcileS,
      rssMiB,
    };
  } finally {
    for (const p of procs) p.kill();
    agent.destroy();
  }
}

// One line and exit when Redis does not answer, instead of BullMQ retrying for ever.
await checkRedis(URL_);
const cores = availableParallelism();
console.log(
  `FlowOps shard benchmark: ${N} watched Items, Redis ${URL_}, 2 worker processes × 32, API server in its own process`,
);
console.log(
  `cores: ${cores} (${cpus()[0]?.model ?? 'unknown'}); every replica, worker, the API server and Redis share them,`,
);
console.log(
  'so the scale-out a replica count allows is bounded by the cores, not by the replicas ' +
    '(expect far below 3.5× at 4 on 2).',
);
const results: Figures[] = [];
for (const r of SETUPS) {
  const f = await setup(r);
  results.push(f);
  const baseline = results[0];
  const ratio = (x: number, b: number | undefined): string => (b ? `${(x / b).toFixed(2)}×` : '');
  const label = r === 1 ? '1 replica, no --shards (baseline)' : `${r} replicas, --shards ${f.shards}`;
  console.log(
    `${label.padEnd(34)} watch → queue ${f.enqueuePerSec.toFixed(0).padStart(6)} keys/s ` +
      `(${f.enqueueS.toFixed(1)} s, ${ratio(f.enqueuePerSec, baseline?.enqueuePerSec)})` +
      `; reconciles ${f.reconcilesPerSec.toFixed(0).padStart(5)}/s ` +
      `(${ratio(f.reconcilesPerSec, baseline?.reconcilesPerSec)})` +
      `; per replica ${Math.round(N / r)} Items cached, RSS ${f.rssMiB.map((m) => m.toFixed(0)).join('/')} MiB`,
  );
}
process.exit(0);
