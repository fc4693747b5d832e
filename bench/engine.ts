// Flow engine benchmark: prints figures, asserts nothing.
//   npx tsx bench/engine.ts [--resources 2000] [--concurrency 8]
// One process, as `flowops up` runs: the embedded API server, the Flow controllers and a worker pool.
// Baseline in the same run: creating the same number of ConfigMaps directly over HTTP (what the
// engine's one apply step costs the API server, without the engine).
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
import { callJson } from './lib/http-call.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('resources', 2000);
const WORKERS = arg('concurrency', 16);
const CLIENTS = 16;

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
const call = (url: string, method: string, body?: unknown): Promise<number> => callJson(agent, url, method, body);

async function createAll(count: number, make: (i: number) => { url: string; body: unknown }, sent: Map<number, number>): Promise<void> {
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

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'items.bench.flowops.io' },
  spec: {
    group: 'bench.flowops.io',
    scope: 'Namespaced',
    names: { kind: 'Item', plural: 'items', singular: 'item' },
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

const FLOW = {
  apiVersion: 'flowops.io/v1',
  kind: 'Flow',
  metadata: { name: 'bench', namespace: 'default' },
  spec: {
    watch: { apiVersion: 'bench.flowops.io/v1', kind: 'Item' },
    reconcile: {
      steps: [
        {
          name: 'child',
          type: 'kubectl',
          action: 'apply',
          manifests: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Resource.metadata.name }}-child\ndata:\n  size: "{{ .Resource.spec.size }}"\n',
        },
      ],
    },
  },
};

/** The step's manifest template alone, rendered as each reconcile renders it. */
function renderMicros(renders = 20_000): number {
  const tpl = FLOW.spec.reconcile.steps[0]!.manifests;
  const t0 = performance.now();
  for (let i = 0; i < renders; i++) renderManifest(tpl, { Resource: { metadata: { name: `item-${i}` }, spec: { size: i } } });
  return ((performance.now() - t0) * 1000) / renders;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const base = server.url;
  try {
    // Baseline: the API server's own create rate for the same objects.
    await call(`${base}/api/v1/namespaces`, 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'baseline' } });
    const t0 = performance.now();
    await createAll(N, (i) => ({ url: `${base}/api/v1/namespaces/baseline/configmaps`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `b-${i}` }, data: { size: String(i) } } }), new Map());
    const baselinePerSec = N / ((performance.now() - t0) / 1000);

    const kube = KubeClient.fromKubeconfig(kubeconfig);
    const controllers = await startControllers({ kube, log: pino({ level: 'silent' }), installCrds: true, concurrency: WORKERS });
    await call(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, 'POST', CRD);
    await call(`${base}/apis/flowops.io/v1/namespaces/default/flows`, 'POST', FLOW);

    const { childAt, close: closeWatch } = watchChildren(base);

    const sent = new Map<number, number>();
    const t1 = performance.now();
    await createAll(N, (i) => ({ url: `${base}/apis/bench.flowops.io/v1/namespaces/default/items`, body: { apiVersion: 'bench.flowops.io/v1', kind: 'Item', metadata: { name: `item-${i}` }, spec: { size: i } } }), sent);
    const deadline = Date.now() + 300_000;
    while (childAt.size < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const elapsed = (performance.now() - t1) / 1000;
    const latencies = [...childAt].map(([i, at]) => at - sent.get(i)!);
    closeWatch();
    await controllers.stop();

    console.log('FlowOps engine benchmark (one process: embedded API server + controllers + worker pool)');
    console.log(`resources: ${N}, one kubectl apply step each, ${WORKERS} concurrent reconciles, ${CLIENTS} creating clients`);
    console.log(`children present: ${childAt.size}/${N} after ${elapsed.toFixed(2)} s`);
    console.log(`reconciles/s: ${(childAt.size / elapsed).toFixed(0)}`);
    console.log(`create -> child present: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms`);
    console.log(`renderManifest of the step's template: ${renderMicros().toFixed(1)} µs/render`);
    console.log(`baseline (same run): direct ConfigMap creates/s ${baselinePerSec.toFixed(0)}; ratio reconciles/s ÷ baseline ${((childAt.size / elapsed) / baselinePerSec).toFixed(2)}`);
  } finally {
    agent.destroy();
    await server.close();
  }
}

await main();
