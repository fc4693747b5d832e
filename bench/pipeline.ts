// Per-event cost of the pipeline engines: incremental vs full recompute, at N = 1k, 10k and 100k
// source objects, for select+project, unwind, gather and a two-source equi-join.
//
//   npx tsx bench/pipeline.ts            (all sizes)
//   npx tsx bench/pipeline.ts 1000 10000 (chosen sizes)
//   BENCH_ONLY=unwind npx tsx bench/pipeline.ts (one scenario)
//
// Goals: incremental time at 100k ÷ time at 1k ≤ 2, and incremental ≥ 100× faster than
// recompute at 100k. Recompute runs few events at large N because each costs O(N).

import v8 from 'node:v8';
import vm from 'node:vm';
import { compilePipeline, type CompiledPipeline, type InputEvent } from '../src/pipeline/index.js';

// A full GC between loading and measuring, so the load's garbage (and the sweeping after it) is
// not billed to the first measured events; per-event figures are meant as the steady state.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const target = { apiVersion: 'bench.flowops.io/v1', kind: 'Out' };

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Scenario {
  readonly name: string;
  readonly sources: string[];
  readonly pipeline: unknown;
  /** The initial objects for size n. */
  initial(n: number): Array<Record<string, unknown>>;
  /** One change event against the current objects (which it updates). */
  change(n: number, rnd: () => number, current: Array<Record<string, unknown>>): InputEvent;
}

const ns = (i: number): string => `ns-${i % 20}`;

function pod(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `pod-${i}`,
      namespace: ns(i),
      labels: { app: `app-${i % 97}`, tier: i % 2 === 0 ? 'web' : 'db' },
      uid: `uid-${i}`,
    },
    spec: {
      n: i,
      containers: [
        { name: 'main', image: 'img:1' },
        { name: 'side', image: 'img:2' },
      ],
      ports: [80, 443, 8080, 9090],
    },
    ...extra,
  };
}

function replace(current: Array<Record<string, unknown>>, i: number, next: Record<string, unknown>): InputEvent {
  current[i] = next;
  return { type: 'Updated', object: next };
}

const scenarios: Scenario[] = [
  {
    name: 'select+project',
    sources: ['Pod'],
    pipeline: [
      { '@select': { '@eq': ['$.metadata.labels.tier', 'web'] } },
      {
        '@project': {
          metadata: { name: '$.metadata.name', namespace: '$.metadata.namespace' },
          spec: { n: '$.spec.n', containers: { '@len': ['$.spec.containers'] } },
        },
      },
    ],
    initial: (n) => Array.from({ length: n }, (_, i) => pod(i)),
    change: (n, rnd, cur) => {
      const i = Math.floor(rnd() * n);
      const p = cur[i] as { metadata: { labels: Record<string, string> } };
      const tier = rnd() < 0.5 ? 'web' : 'db';
      return replace(cur, i, {
        ...pod(i),
        metadata: { ...p.metadata, labels: { ...p.metadata.labels, tier } },
        spec: { ...(pod(i).spec as object), n: Math.floor(rnd() * 1e6) },
      });
    },
  },
  {
    name: 'unwind',
    sources: ['Pod'],
    pipeline: [
      { '@unwind': '$.spec.ports' },
      {
        '@project': { metadata: { name: '$.metadata.name', namespace: '$.metadata.namespace' }, port: '$.spec.ports' },
      },
    ],
    initial: (n) => Array.from({ length: n }, (_, i) => pod(i)),
    change: (n, rnd, cur) => {
      const i = Math.floor(rnd() * n);
      const ports = [80, 443, 8080, 9000 + Math.floor(rnd() * 1000)];
      return replace(cur, i, { ...pod(i), spec: { ...(pod(i).spec as object), ports } });
    },
  },
  {
    name: 'gather',
    sources: ['Pod'],
    pipeline: [
      { '@gather': ['$.spec.group', '$.metadata.name'] },
      { '@project': { metadata: { name: { '@concat': ['group-', '$.spec.group'] } }, members: '$.metadata.name' } },
    ],
    // Groups of ~10 members at every N.
    initial: (n) => Array.from({ length: n }, (_, i) => pod(i, { spec: { group: i % Math.max(1, n / 10) } })),
    change: (n, rnd, cur) => {
      const i = Math.floor(rnd() * n);
      return replace(cur, i, pod(i, { spec: { group: Math.floor(rnd() * Math.max(1, n / 10)) } }));
    },
  },
  {
    name: 'equi-join',
    sources: ['Pod', 'Service'],
    pipeline: [
      {
        '@join': {
          '@and': [
            { '@eq': ['$.Service.spec.selector.app', '$.Pod.metadata.labels.app'] },
            { '@eq': ['$.Service.metadata.namespace', '$.Pod.metadata.namespace'] },
          ],
        },
      },
      {
        '@project': {
          metadata: {
            name: { '@concat': ['$.Service.metadata.name', '--', '$.Pod.metadata.name'] },
            namespace: '$.Pod.metadata.namespace',
          },
          spec: { type: '$.Service.spec.type', n: '$.Pod.spec.n' },
        },
      },
    ],
    // N objects in all: ~N·10/11 pods and ~N/11 services, each service selecting ~10 pods.
    initial: (n) => {
      const services = Math.max(1, Math.round(n / 11));
      const pods = n - services;
      const out: Array<Record<string, unknown>> = [];
      for (let i = 0; i < pods; i++)
        out.push(
          pod(i, {
            metadata: { name: `pod-${i}`, namespace: ns(i % services), labels: { app: `app-${i % services}` } },
          }),
        );
      for (let s = 0; s < services; s++) {
        out.push({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: `svc-${s}`, namespace: ns(s) },
          spec: { selector: { app: `app-${s}` }, type: 'ClusterIP' },
        });
      }
      return out;
    },
    change: (n, rnd, cur) => {
      const services = Math.max(1, Math.round(n / 11));
      const pods = n - services;
      if (rnd() < 0.9) {
        const i = Math.floor(rnd() * pods);
        const s = Math.floor(rnd() * services);
        return replace(
          cur,
          i,
          pod(i, { metadata: { name: `pod-${i}`, namespace: ns(s), labels: { app: `app-${s}` } } }),
        );
      }
      const s = Math.floor(rnd() * services);
      const type = rnd() < 0.5 ? 'ClusterIP' : 'NodePort';
      return replace(cur, pods + s, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `svc-${s}`, namespace: ns(s) },
        spec: { selector: { app: `app-${s}` }, type },
      });
    },
  },
];

interface Result {
  readonly perEventMs: number;
  readonly loadMs: number;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Loads n objects as one batch, warms up, then times `rounds` rounds of `perRound` events and
 * reports the median round: the machine this runs on is shared, and a median ignores the
 * rounds another process stole the CPU from.
 */
function measure(
  s: Scenario,
  n: number,
  mode: 'incremental' | 'recompute',
  rounds: number,
  perRound: number,
  warmup: number,
): Result {
  const p: CompiledPipeline = compilePipeline(s.pipeline, { sources: s.sources, target, mode });
  const current = s.initial(n);
  const t0 = performance.now();
  p.processBatch(current.map((object) => ({ type: 'Added', object })));
  const loadMs = performance.now() - t0;
  collect();
  const rnd = prng(n + rounds * perRound);
  for (let i = 0; i < warmup; i++) p.process(s.change(n, rnd, current));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const batch = Array.from({ length: perRound }, () => s.change(n, rnd, current));
    const t1 = performance.now();
    for (const e of batch) p.process(e);
    times.push((performance.now() - t1) / perRound);
  }
  return { perEventMs: median(times), loadMs };
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((x) => x > 0);
const sizesToRun = sizes.length > 0 ? sizes : [1_000, 10_000, 100_000];
// Recompute costs O(N) per event: few events at large N (each timed on its own at 100k).
const recomputePlan = (n: number): [rounds: number, perRound: number, warmup: number] =>
  n <= 1_000 ? [5, 20, 5] : n <= 10_000 ? [5, 4, 1] : [3, 1, 0];

const fmt = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(1)} ms`);
const pad = (s: string, w: number): string => s.padEnd(w);

console.log(`node ${process.version}, ${sizesToRun.join(' / ')} source objects\n`);
console.log(
  `${pad('scenario', 16)}${pad('N', 9)}${pad('incremental/event', 20)}${pad('recompute/event', 18)}${pad('speedup', 10)}load (incr / recompute)`,
);
const summary: string[] = [];
const only = process.env.BENCH_ONLY;
for (const s of scenarios.filter((x) => only === undefined || x.name === only)) {
  const incr: Record<number, number> = {};
  let lastSpeedup = 0;
  for (const n of sizesToRun) {
    const inc = measure(s, n, 'incremental', 7, 500, 2_000);
    const rec = measure(s, n, 'recompute', ...recomputePlan(n));
    incr[n] = inc.perEventMs;
    lastSpeedup = rec.perEventMs / inc.perEventMs;
    console.log(
      `${pad(s.name, 16)}${pad(String(n), 9)}${pad(fmt(inc.perEventMs), 20)}${pad(fmt(rec.perEventMs), 18)}${pad(`${lastSpeedup.toFixed(0)}×`, 10)}${fmt(inc.loadMs)} / ${fmt(rec.loadMs)}`,
    );
  }
  const lo = incr[sizesToRun[0] as number] as number;
  const hi = incr[sizesToRun[sizesToRun.length - 1] as number] as number;
  summary.push(
    `${pad(s.name, 16)}incremental ${sizesToRun[sizesToRun.length - 1]}÷${sizesToRun[0]} = ${(hi / lo).toFixed(2)} (goal ≤ 2)   speedup at ${sizesToRun[sizesToRun.length - 1]} = ${lastSpeedup.toFixed(0)}× (goal ≥ 100)`,
  );
}
console.log(`\n${summary.join('\n')}`);
