// Scale benchmark (issue 22, item 7): does the cost of a watched object grow linearly and no faster?
//   npx tsx --expose-gc bench/scale.ts [--sizes 1000,5000] [--concurrency 16]
// For each size N, in one process with the embedded API server and the controllers as `flowops up
// --controllers-in-process` runs them (one heap to measure; the default worker thread adds a heap of
// its own beside it):
//   1. baseline: a fresh server stores N Items and N ConfigMaps like the children, created directly,
//      with no Flow; its heap delta is what the objects themselves cost the server;
//   2. a fresh server + the controllers + the one-step Item Flow; N Items created; reconciles/s to
//      every Item's Ready condition; the heap delta beyond the baseline's, per object, is what FlowOps
//      adds for a watched object with its child, its run record and its Events (goal ≤ 6 KiB);
//   3. a full resync (every key enqueued, nothing changed) and a changed run (every Item's spec
//      patched): time and API writes per object, from the server's apiserver_request_total;
//   4. the controllers stopped and started again on the N objects: time to synced watches and to
//      the start's re-judge of every object, and the writes it made.
// A ratio line per size against the first size shows whether cost grows linearly (1.00 = linear).
// Each size runs in a process of its own. Measured on 2 cores shared with other work (load 4-5): 1,000
// took 62 s, 5,000 took 171 s (the default run is about 4 min); 10,000 should take about 6 min and
// 50,000 about 30 min (start and resync at those sizes cost as the creates do: linear).
// --heap-snapshot <path> writes <path>.<N> once every Item is Ready, for a per-object diff of two sizes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import pino from 'pino';
import { Registry } from 'prom-client';
import { startApiServer, type ApiServer } from '../src/apiserver/index.js';
import type { JsonObject } from '../src/apiserver/registry/types.js';
import { KubeClient } from '../src/kube/client.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import { createMetrics, type FlowOpsMetrics } from '../src/metrics/registry.js';
import { startControllers, type Controllers } from '../src/runtime/controllers.js';
import { callJson } from './lib/http-call.js';
import { ITEM_CRD, item, itemFlow } from './lib/item-flow.js';
import { describe, diff, settle, total, type WriteFigures, writeCounts, writePhases } from './lib/write-phases.js';

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (argOf('sizes') ?? '1000,5000').split(',').map(Number);
const WORKERS = Number(argOf('concurrency') ?? 16);
const CLIENTS = 16;
const NS = 'scale';

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const until = async (what: string, done: () => boolean | Promise<boolean>, ms = 1_800_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

interface Memory {
  heap: number;
  rss: number;
}
/** After two full collections, so garbage of the phase before is not counted. */
function memory(): Memory {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}

async function createAll(count: number, make: (i: number) => { path: string; body: unknown }, base: string) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        const i = next++;
        const { path, body } = make(i);
        const code = await callJson(agent, `${base}${path}`, 'POST', body);
        if (code !== 201) throw new Error(`create ${path} #${i}: HTTP ${code}`);
      }
    }),
  );
}

interface Server {
  server: ApiServer;
  metrics: Registry;
  kubeconfig: string;
  close(): Promise<void>;
}

async function freshServer(label: string): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), `bench-scale-${label}-`));
  const metrics = new Registry();
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data'), metrics });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const post = (path: string, body: unknown): Promise<number> => callJson(agent, `${server.url}${path}`, 'POST', body);
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', ITEM_CRD);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  await until('Items served', () =>
    kube.list('bench.flowops.io/v1', 'Item', { namespace: NS }).then(
      () => true,
      () => false,
    ),
  );
  return {
    server,
    metrics,
    kubeconfig,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const itemsPath = `/apis/bench.flowops.io/v1/namespaces/${NS}/items`;
const configMapsPath = `/api/v1/namespaces/${NS}/configmaps`;
const childOf = (i: number, size = i): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `item-${i}-child`, namespace: NS },
  data: { size: String(size) },
});

/** The same N objects stored without a Flow: what they cost the server on their own. */
async function baseline(n: number): Promise<{ bytesPerObject: number; jsonBytes: number; createsPerSec: number }> {
  const s = await freshServer('baseline');
  try {
    const m0 = memory();
    const t0 = performance.now();
    await createAll(n, (i) => ({ path: itemsPath, body: item(i, NS) }), s.server.url);
    const createsPerSec = n / ((performance.now() - t0) / 1000);
    await createAll(n, (i) => ({ path: configMapsPath, body: childOf(i) }), s.server.url);
    const m1 = memory();
    const json = async (path: string): Promise<number> => (await (await fetch(`${s.server.url}${path}`)).text()).length;
    const jsonBytes = (await json(`${itemsPath}/item-0`)) + (await json(`${configMapsPath}/item-0-child`));
    return { bytesPerObject: (m1.heap - m0.heap) / n, jsonBytes, createsPerSec };
  } finally {
    await s.close();
  }
}

/** Marks item i when the server stores its Ready=True condition, and child i when it holds `size`. */
function progress(server: ApiServer, n: number) {
  const ready = new Uint8Array(n);
  const childSize = new Int32Array(n).fill(-1);
  let readyCount = 0;
  server.objects.onWrite((t, _e, obj) => {
    const meta = obj.metadata as { name?: string; namespace?: string };
    if (meta.namespace !== NS) return;
    if (t.plural === 'items') {
      const i = Number(meta.name?.slice(5));
      const conditions = (obj.status as { conditions?: Array<{ type: string; status: string }> } | undefined)
        ?.conditions;
      if (!ready[i] && conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) {
        ready[i] = 1;
        readyCount++;
      }
    } else if (t.plural === 'configmaps') {
      const i = Number(/^item-(\d+)-child$/.exec(meta.name ?? '')?.[1]);
      if (i >= 0 && i < n) childSize[i] = Number((obj.data as { size?: string } | undefined)?.size);
    }
  }, 'scale-bench');
  return {
    ready: () => readyCount,
    childrenAt: (sizeOf: (i: number) => number) => {
      let c = 0;
      for (let i = 0; i < n; i++) if (childSize[i] === sizeOf(i)) c++;
      return c;
    },
  };
}

async function reconciles(metrics: FlowOpsMetrics): Promise<number> {
  return (await metrics.reconcileTotal.get()).values.reduce((a, v) => a + v.value, 0);
}

/** One size's figures: the write phases' (resync and changed run) and the rest. */
interface Figures extends WriteFigures {
  n: number;
  reconcilesPerSec: number;
  /** The baseline's direct Item creates/s, same client, same process. */
  createsPerSec: number;
  flowBytesPerObject: number;
  baselineBytesPerObject: number;
  jsonBytes: number;
  rssDeltaPerObject: number;
  startSyncedMs: number;
  startJudgedMs: number;
  startWrites: Map<string, number>;
  startReconciles: number;
}

const controllersFor = (kubeconfig: string, metrics: FlowOpsMetrics): Promise<Controllers> =>
  startControllers({
    kube: KubeClient.fromKubeconfig(kubeconfig),
    log: pino({ level: 'silent' }),
    installCrds: true,
    concurrency: WORKERS,
    metrics,
  });

async function oneSize(n: number): Promise<Figures> {
  const base = await baseline(n);
  const s = await freshServer('flow');
  const metrics = createMetrics({ defaultMetrics: false });
  let controllers: Controllers | undefined;
  try {
    const seen = progress(s.server, n);
    controllers = await controllersFor(s.kubeconfig, metrics);
    await callJson(agent, `${s.server.url}/apis/flowops.io/v1/namespaces/${NS}/flows`, 'POST', itemFlow(NS));
    const c = controllers;
    await until('the Flow watched', () => c.flows.synced() && c.flows.watches.allKeys().length === 0);
    await settle(c);
    const m0 = memory();
    const t0 = performance.now();
    await createAll(n, (i) => ({ path: itemsPath, body: item(i, NS) }), s.server.url);
    await until('every Item Ready', () => seen.ready() >= n);
    const reconcilesPerSec = n / ((performance.now() - t0) / 1000);
    await settle(c);
    const m1 = memory();
    const snapshot = argOf('heap-snapshot');
    if (snapshot) writeHeapSnapshot(snapshot);

    const writes = await writePhases(
      c,
      metrics,
      s.metrics,
      n,
      async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (next < n) {
              const i = next++;
              const url = `${s.server.url}${itemsPath}/item-${i}`;
              const code = await callJson(
                agent,
                url,
                'PATCH',
                { spec: { size: i + 1 } },
                'application/merge-patch+json',
              );
              if (code !== 200) throw new Error(`patch item-${i}: HTTP ${code}`);
            }
          }),
        );
        await until('every child changed', () => seen.childrenAt((i) => i + 1) >= n);
      },
      'PATCH items',
    );

    // The engine's start at this size: the Flow's watches list N Items and N children, and every
    // object is judged again (a restart has no memo of the runs before it).
    await c.stop();
    controllers = undefined;
    gc();
    const w0 = await writeCounts(s.metrics);
    const r0 = await reconciles(metrics);
    const t1 = performance.now();
    const again = await controllersFor(s.kubeconfig, metrics);
    controllers = again;
    await until('the watches synced', () => again.flows.synced() && again.flows.watches.allKeys().length >= n);
    const startSyncedMs = performance.now() - t1;
    await until('every object judged again', async () => (await reconciles(metrics)) - r0 >= n);
    const startJudgedMs = performance.now() - t1;
    await settle(again);
    await again.flows.flushRecords();
    return {
      n,
      reconcilesPerSec,
      createsPerSec: base.createsPerSec,
      flowBytesPerObject: (m1.heap - m0.heap) / n,
      baselineBytesPerObject: base.bytesPerObject,
      jsonBytes: base.jsonBytes,
      rssDeltaPerObject: (m1.rss - m0.rss) / n,
      resyncRuns: writes.resyncRuns,
      resyncSeconds: writes.resyncSeconds,
      resyncWrites: writes.resyncWrites,
      changedRuns: writes.changedRuns,
      changedSeconds: writes.changedSeconds,
      changedWrites: writes.changedWrites,
      startSyncedMs,
      startJudgedMs,
      startWrites: diff(w0, await writeCounts(s.metrics)),
      startReconciles: (await reconciles(metrics)) - r0,
    };
  } finally {
    await controllers?.stop();
    await s.close();
  }
}

const kib = (bytes: number): string => (bytes / 1024).toFixed(2);

function print(f: Figures): void {
  const beyond = f.flowBytesPerObject - f.baselineBytesPerObject;
  console.log(`N = ${f.n} watched Items, one ConfigMap child each:`);
  console.log(
    `  reconciles/s to all Ready: ${f.reconcilesPerSec.toFixed(0)}; baseline (same process) direct Item creates/s ${f.createsPerSec.toFixed(0)}; ratio ${(f.reconcilesPerSec / f.createsPerSec).toFixed(2)}`,
  );
  console.log(
    `  memory per watched object beyond the objects' own (heap + external, after GC): ${kib(beyond)} KiB (goal ≤ 6); ` +
      `with the Flow ${kib(f.flowBytesPerObject)} KiB, baseline (the same Item + ConfigMap stored, no Flow) ${kib(f.baselineBytesPerObject)} KiB; ` +
      `their JSON ${kib(f.jsonBytes)} KiB; RSS delta with the Flow ${kib(f.rssDeltaPerObject)} KiB`,
  );
  console.log(
    `  full resync (every key, nothing changed): ${f.resyncRuns} reconciles in ${f.resyncSeconds.toFixed(2)} s, ${total(f.resyncWrites)} API writes (${describe(f.resyncWrites)}) (goal 0)`,
  );
  console.log(
    `  changed run (every Item's spec patched, the bench's ${f.n} patches left out): ${f.changedRuns} reconciles in ${f.changedSeconds.toFixed(2)} s, ` +
      `${(total(f.changedWrites) / f.n).toFixed(2)} API writes per object with its child (${describe(f.changedWrites)}) (goal ≤ 2)`,
  );
  console.log(
    `  engine start on ${f.n} objects: watches synced ${f.startSyncedMs.toFixed(0)} ms, every object judged again ${f.startJudgedMs.toFixed(0)} ms ` +
      `(${f.startReconciles} reconciles, ${total(f.startWrites)} API writes: ${describe(f.startWrites)})`,
  );
}

function printRatio(f: Figures, first: Figures): void {
  const scale = f.n / first.n;
  const beyond = (x: Figures): number => x.flowBytesPerObject - x.baselineBytesPerObject;
  const r = (a: number, b: number): string => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  console.log(
    `  ÷ the ${first.n} figures (${scale}× the objects; 1.00 = linear): time per reconcile ${r(first.reconcilesPerSec, f.reconcilesPerSec)}, ` +
      `memory per object ${r(beyond(f), beyond(first))}, resync time per object ${r(f.resyncSeconds / scale, first.resyncSeconds)}, ` +
      `start per object ${r(f.startJudgedMs / scale, first.startJudgedMs)}`,
  );
}

/** One size in a process of its own, so no size's garbage or warm caches land in the next one's figures. */
function inChild(n: number): Promise<Figures> {
  const script = process.argv[1] ?? 'bench/scale.ts';
  const extra = argOf('heap-snapshot') ? ['--heap-snapshot', `${argOf('heap-snapshot')}.${n}`] : [];
  const args = [...process.execArgv, script, '--one', String(n), '--concurrency', String(WORKERS), ...extra];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) return reject(new Error(`size ${n}: exit ${code}\n${out}`));
      resolve(fromJson(line));
    });
  });
}

const MAPS = ['resyncWrites', 'changedWrites', 'startWrites'] as const;
const toJson = (f: Figures): string => JSON.stringify({ ...f, ...Object.fromEntries(MAPS.map((k) => [k, [...f[k]]])) });
function fromJson(line: string): Figures {
  const raw = JSON.parse(line) as Record<string, unknown>;
  for (const k of MAPS) raw[k] = new Map(raw[k] as Array<[string, number]>);
  return raw as unknown as Figures;
}

const one = argOf('one');
if (one) {
  try {
    console.log(toJson(await oneSize(Number(one))));
  } finally {
    agent.destroy();
  }
} else {
  console.log(
    `FlowOps scale benchmark (one process a size: embedded API server + controllers in-process, ${WORKERS} concurrent reconciles, ${CLIENTS} creating clients; ` +
      `${availableParallelism()} cores, load average ${(loadavg()[0] ?? 0).toFixed(1)} at the start)`,
  );
  if (!process.execArgv.includes('--expose-gc'))
    console.log('(run with --expose-gc: memory figures need a full collection)');
  const done: Figures[] = [];
  for (const n of SIZES) {
    const t = performance.now();
    const f = await inChild(n);
    done.push(f);
    print(f);
    const first = done[0];
    if (first && first !== f) printRatio(f, first);
    console.log(`  (this size took ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
  agent.destroy();
}
