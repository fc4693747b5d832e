// Flow engine benchmark: prints figures, asserts nothing.
//   npx tsx --expose-gc bench/engine.ts [--resources 2000] [--concurrency 8] [--owners 2000] [--heals 300] [--rounds 6]
// One process, as `flowops up` runs: the embedded API server, the Flow controllers and a worker pool.
// Baseline in the same run: creating the same number of ConfigMaps directly over HTTP (what the
// engine's one apply step costs the API server, without the engine).
// Second phase (children): `--owners` objects of a Flow with three children each; then children are
// deleted one at a time and the figure is the time from the delete to the child being back
// (child event -> owner re-reconciled -> re-applied), with the process RSS and the heap a cached
// child costs the child informers.
// Third phase (impersonation): on a server with authentication and RBAC on, the same one-step
// Flow with FlowOps' identity vs with serviceAccountName (every call impersonated and authorized
// as the ServiceAccount), alternating rounds of --resources/2 Items each; goal ≥ 0.8×.
// Fourth phase (web view): the same Flow with no page open vs an open overview page (the change
// stream plus its refetches, bench/lib/ui-stream-phase.ts), alternating rounds; goal ≥ 0.95×.
// Fifth phase (`up`'s layouts, bench/lib/up-layouts-phase.ts): the controller side on a worker
// thread (what `flowops up` runs) vs on the API server's thread (--controllers-in-process), each
// round on a fresh server with its own direct-create baseline; `--layout-rounds` rounds a layout,
// `--only-layouts` runs this phase alone.
import { Agent } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startApiServer } from '../src/apiserver/index.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import { KubeClient } from '../src/kube/client.js';
import { startControllers } from '../src/runtime/controllers.js';
import { renderManifest } from '../src/template/index.js';
import { watchChildren } from './lib/watch-children.js';
import { CHILD_MANIFEST, ITEM_CRD, itemFlow } from './lib/item-flow.js';
import { callJson } from './lib/http-call.js';
import { impersonationPhase } from './lib/impersonation-phase.js';
import { uiStreamPhase } from './lib/ui-stream-phase.js';
import { upLayoutsPhase } from './lib/up-layouts-phase.js';
import { describe, diff, printWrites, total, writeCounts, writePhases } from './lib/write-phases.js';
import { Registry } from 'prom-client';
import { createMetrics } from '../src/metrics/registry.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('resources', 2000);
const OWNERS = arg('owners', 2000);
const HEALS = arg('heals', 300);
const WORKERS = arg('concurrency', 16);
const CLIENTS = 16;
const ROUNDS = arg('rounds', 6);
const LAYOUT_ROUNDS = arg('layout-rounds', 4);

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
const call = (url: string, method: string, body?: unknown): Promise<number> => callJson(agent, url, method, body);

async function createAll(
  count: number,
  make: (i: number) => { url: string; body: unknown },
  sent: Map<number, number>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        const i = next++;
        const { url, body } = make(i);
        sent.set(i, performance.now());
        const code = await call(url, 'POST', body);
        if (code !== 201) throw new Error(`create ${i}: HTTP ${code}`);
      }
    }),
  );
}

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const CRD = ITEM_CRD;
const FLOW = itemFlow('default', { clusterWide: true });

const OWNER_CRD = {
  ...CRD,
  metadata: { name: 'owners.bench.flowops.io' },
  spec: { ...CRD.spec, names: { kind: 'Owner', plural: 'owners', singular: 'owner' } },
};

const childDoc = (suffix: string): string =>
  `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Resource.metadata.name }}-${suffix}\ndata:\n  size: "{{ .Resource.spec.size }}"\n`;
const OWNER_FLOW = {
  apiVersion: 'flowops.io/v1',
  kind: 'Flow',
  metadata: { name: 'owners', namespace: 'default' },
  spec: {
    watch: { apiVersion: 'bench.flowops.io/v1', kind: 'Owner' },
    reconcile: {
      steps: [
        { name: 'children', type: 'kubectl', action: 'apply', manifests: ['a', 'b', 'c'].map(childDoc).join('') },
      ],
    },
  },
};

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const heapMiB = (): number => process.memoryUsage().heapUsed / 2 ** 20;

/** The step's manifest template alone, rendered as each reconcile renders it. */
function renderMicros(renders = 20_000): number {
  const tpl = CHILD_MANIFEST;
  const t0 = performance.now();
  for (let i = 0; i < renders; i++)
    renderManifest(tpl, { Resource: { metadata: { name: `item-${i}` }, spec: { size: i } } });
  return ((performance.now() - t0) * 1000) / renders;
}

async function layouts(): Promise<void> {
  const { cores, load, layouts: l } = await upLayoutsPhase(CRD, N, LAYOUT_ROUNDS, WORKERS, CLIENTS);
  const line = (name: string, f: { reconcilesPerSec: number; baselinePerSec: number; ratio: number }): string =>
    `  ${name}: ${f.reconcilesPerSec.toFixed(0)} reconciles/s; baseline (same rounds) direct ConfigMap creates/s ${f.baselinePerSec.toFixed(0)}; ratio ${f.ratio.toFixed(2)}`;
  console.log(
    `flowops up's layouts (${N} Items a round, ${LAYOUT_ROUNDS} rounds a layout, order flipping, a fresh API server each round; medians; ${cores} cores here, load average ${load.toFixed(1)} at the end):`,
  );
  console.log(line('controllers on a worker thread (the default)', l['worker-thread']));
  console.log(line("controllers on the API server's thread (--controllers-in-process)", l['in-process']));
  console.log(
    `  worker thread ÷ one thread: ${(l['worker-thread'].ratio / l['in-process'].ratio).toFixed(2)}× the ratio (goal of issue 22: ratio ≥ 0.5)`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  // The server's own request counter (apiserver_request_total) is where the write counts are read.
  const serverMetrics = new Registry();
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data'), metrics: serverMetrics });
  const metrics = createMetrics({ defaultMetrics: false });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const base = server.url;
  try {
    // Baseline: the API server's own create rate for the same objects.
    await call(`${base}/api/v1/namespaces`, 'POST', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'baseline' },
    });
    const t0 = performance.now();
    await createAll(
      N,
      (i) => ({
        url: `${base}/api/v1/namespaces/baseline/configmaps`,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `b-${i}` }, data: { size: String(i) } },
      }),
      new Map(),
    );
    const baselinePerSec = N / ((performance.now() - t0) / 1000);

    const kube = KubeClient.fromKubeconfig(kubeconfig);
    const controllers = await startControllers({
      kube,
      log: pino({ level: 'silent' }),
      installCrds: true,
      concurrency: WORKERS,
      metrics,
    });
    await call(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, 'POST', CRD);
    await call(`${base}/apis/flowops.io/v1/namespaces/default/flows`, 'POST', FLOW);

    const { childAt, close: closeWatch } = watchChildren(base);

    const sent = new Map<number, number>();
    const requests0 = await writeCounts(serverMetrics, true);
    const t1 = performance.now();
    await createAll(
      N,
      (i) => ({
        url: `${base}/apis/bench.flowops.io/v1/namespaces/default/items`,
        body: { apiVersion: 'bench.flowops.io/v1', kind: 'Item', metadata: { name: `item-${i}` }, spec: { size: i } },
      }),
      sent,
    );
    const deadline = Date.now() + 300_000;
    while (childAt.size < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const elapsed = (performance.now() - t1) / 1000;
    const latencies = [...childAt].map(([i, at]) => at - sent.get(i)!);
    closeWatch();
    const createRequests = diff(requests0, await writeCounts(serverMetrics, true));

    // Writes of a no-op resync and of a changed run, from the server's counter.
    const itemsPath = `${base}/apis/bench.flowops.io/v1/namespaces/default/items`;
    const writes = await writePhases(
      controllers,
      metrics,
      serverMetrics,
      N,
      async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (next < N) {
              const i = next++;
              const code = await callJson(
                agent,
                `${itemsPath}/item-${i}`,
                'PATCH',
                { spec: { size: i + 1 } },
                'application/merge-patch+json',
              );
              if (code !== 200) throw new Error(`patch item-${i}: HTTP ${code}`);
            }
          }),
        );
        const changed = async (): Promise<number> => {
          const list = (await (
            await fetch(`${base}/api/v1/namespaces/default/configmaps?labelSelector=flowops.io/flow%3Dbench`)
          ).json()) as { items: Array<{ metadata: { name: string }; data?: { size?: string } }> };
          return list.items.filter(
            (c) => c.data?.size === String(Number(/item-(\d+)-child/.exec(c.metadata.name)?.[1]) + 1),
          ).length;
        };
        while ((await changed()) < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      },
      'PATCH items',
    );

    // Children: OWNERS owners with three children each, then heal HEALS deleted children.
    await call(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, 'POST', OWNER_CRD);
    await call(`${base}/apis/flowops.io/v1/namespaces/default/flows`, 'POST', OWNER_FLOW);
    await call(`${base}/api/v1/namespaces`, 'POST', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'owned' },
    });
    const tc = performance.now();
    await createAll(
      OWNERS,
      (i) => ({
        url: `${base}/apis/bench.flowops.io/v1/namespaces/owned/owners`,
        body: { apiVersion: 'bench.flowops.io/v1', kind: 'Owner', metadata: { name: `owner-${i}` }, spec: { size: i } },
      }),
      new Map(),
    );
    const withInventory = async (): Promise<number> => {
      const list = (await (await fetch(`${base}/apis/bench.flowops.io/v1/namespaces/owned/owners`)).json()) as {
        items: Array<{ metadata: { annotations?: Record<string, string> } }>;
      };
      return list.items.filter((o) => o.metadata.annotations?.['flowops.io/inventory']).length;
    };
    while ((await withInventory()) < OWNERS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const ownersSec = (performance.now() - tc) / 1000;
    const childWatches = controllers.flows.watches.children;
    while (childWatches.cachedChildren() < OWNERS * 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    gc();
    const rss = process.memoryUsage().rss / 2 ** 20;
    const cachedChildren = childWatches.cachedChildren();

    const healed: number[] = [];
    const nsPath = `${base}/api/v1/namespaces/owned/configmaps`;
    for (let h = 0; h < HEALS; h++) {
      const name = `owner-${(h * 7919) % OWNERS}-${'abc'[h % 3]}`;
      const before = (await (await fetch(`${nsPath}/${name}`)).json()) as { metadata: { uid: string } };
      const t = performance.now();
      await call(`${nsPath}/${name}`, 'DELETE');
      for (;;) {
        const r = await fetch(`${nsPath}/${name}`);
        if (
          r.status === 200 &&
          ((await r.json()) as { metadata: { uid: string } }).metadata.uid !== before.metadata.uid
        )
          break;
        if (r.status !== 200) await r.arrayBuffer();
        if (Date.now() > deadline) throw new Error(`${name} was not put back`);
        await new Promise((res) => setTimeout(res, 2));
      }
      healed.push(performance.now() - t);
    }
    await controllers.stop();

    // What one cached child costs an informer, measured on a fresh informer over the same children
    // (with the child informers' transform: no managedFields).
    const { Informer, dropManagedFields } = await import('../src/kube/informer.js');
    gc();
    const heap0 = heapMiB();
    const probe = new Informer(
      kube,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        labelSelector: 'flowops.io/flow=owners',
        log: pino({ level: 'silent' }),
        transform: dropManagedFields,
      },
      { add: () => undefined, update: () => undefined, delete: () => undefined },
    );
    probe.start();
    while (probe.list().length < OWNERS * 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    gc();
    const perChildKiB = ((heapMiB() - heap0) * 1024) / probe.list().length;
    const jsonKiB = Buffer.byteLength(JSON.stringify(probe.list()[0])) / 1024;
    await probe.stop();

    console.log('FlowOps engine benchmark (one process: embedded API server + controllers + worker pool)');
    console.log(
      `resources: ${N}, one kubectl apply step each, ${WORKERS} concurrent reconciles, ${CLIENTS} creating clients`,
    );
    console.log(`children present: ${childAt.size}/${N} after ${elapsed.toFixed(2)} s`);
    console.log(`reconciles/s: ${(childAt.size / elapsed).toFixed(0)}`);
    console.log(
      `create -> child present: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms`,
    );
    console.log(`renderManifest of the step's template: ${renderMicros().toFixed(1)} µs/render`);
    console.log(
      `baseline (same run): direct ConfigMap creates/s ${baselinePerSec.toFixed(0)}; ratio reconciles/s ÷ baseline ${(childAt.size / elapsed / baselinePerSec).toFixed(2)}`,
    );
    console.log(
      `API requests while the ${N} Items were created and reconciled (the bench's creates included): ${total(createRequests)} = ${(total(createRequests) / N).toFixed(1)} per Item (${describe(createRequests)})`,
    );
    printWrites(writes, N);
    console.log(
      `children: ${OWNERS} owners x 3 children reconciled (inventories written) in ${ownersSec.toFixed(2)} s; child informers cache ${cachedChildren} children`,
    );
    console.log(
      `child deleted -> put back (child event -> owner re-reconciled), ${healed.length} deletes one at a time: p50 ${pct(healed, 50).toFixed(1)} ms, p99 ${pct(healed, 99).toFixed(1)} ms`,
    );
    console.log(
      `process RSS with ${OWNERS} owners and ${OWNERS * 3} children (API server included): ${rss.toFixed(0)} MiB`,
    );
    console.log(
      `informer heap per cached child: ${perChildKiB.toFixed(2)} KiB${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for a steadier figure)'}; the child's JSON: ${jsonKiB.toFixed(2)} KiB`,
    );
    // Six rounds a side, in flipping order; the ratio is the median of the rounds' own ratios.
    const perRound = Math.ceil(N / 8);
    const uiCost = await uiStreamPhase(CRD, perRound, ROUNDS, WORKERS, CLIENTS);
    console.log(
      `web view (an open overview page: the change stream + a refetch per batch, ${uiCost.refetches} refetches; ${ROUNDS} rounds of ${perRound} Items a side, order flipping): no page ${uiCost.closedPerSec.toFixed(0)} reconciles/s, page open ${uiCost.openPerSec.toFixed(0)} reconciles/s; median of the rounds' ratios ${uiCost.ratio.toFixed(2)} (goal ≥ 0.95)`,
    );
    const imp = await impersonationPhase(CRD, perRound, ROUNDS, WORKERS, CLIENTS);
    // A server of its own each round: after the other phases, with their servers closed.
    await layouts();
    console.log(
      `impersonation (auth + RBAC on, ${ROUNDS} rounds of ${perRound} Items a side, order flipping): FlowOps' identity ${imp.plainPerSec.toFixed(0)} reconciles/s, as a ServiceAccount ${imp.impersonatingPerSec.toFixed(0)} reconciles/s; median of the rounds' ratios ${imp.ratio.toFixed(2)} (goal ≥ 0.8)`,
    );
  } finally {
    agent.destroy();
    await server.close();
  }
}

if (process.argv.includes('--only-layouts')) await layouts();
else await main();
