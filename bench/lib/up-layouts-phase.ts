// `flowops up`'s two layouts side by side (src/cli/up/): the controller side on a worker thread
// (the default) and on the API server's thread (--controllers-in-process). Each round starts a
// fresh embedded API server, measures its direct ConfigMap creates/s (the baseline, same run, same
// client), then starts the controller side in one layout and times `perRound` Items to their
// children. Rounds alternate the layouts, order flipping, as alternating-rounds.ts does; the
// ratio per layout is the median of its rounds' reconciles/s ÷ that round's baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startApiServer } from '../../src/apiserver/index.js';
import { ControllersThread, InProcessControllers } from '../../src/cli/up/index.js';
import type { ControllerSide, ControllersConfig, ControllersLayout } from '../../src/cli/up/index.js';
import { KubeClient } from '../../src/kube/client.js';
import { writeKubeconfig } from '../../src/kube/kubeconfig.js';
import type { KubeObject } from '../../src/kube/types.js';
import { childCounter, itemFlow } from './alternating-rounds.js';

export interface LayoutFigures {
  reconcilesPerSec: number;
  baselinePerSec: number;
  /** Median over its rounds of reconciles/s ÷ the round's direct creates/s. */
  ratio: number;
}

export interface LayoutsResult {
  cores: number;
  /** The machine's 1-minute load average at the end: above `cores`, other work shared them. */
  load: number;
  layouts: Record<ControllersLayout, LayoutFigures>;
}

const LAYOUTS: readonly ControllersLayout[] = ['in-process', 'worker-thread'];
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  return s.length % 2 ? (s[Math.floor(mid)] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

type Create = (i: number) => Promise<unknown>;

async function createConcurrently(clients: number, count: number, create: Create): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) await create(next++);
    }),
  );
}

interface Round {
  layout: ControllersLayout;
  crd: object;
  perRound: number;
  concurrency: number;
  clients: number;
}

async function oneRound(round: Round): Promise<{ perSec: number; baseline: number }> {
  const { layout, crd, perRound, concurrency, clients } = round;
  const dir = mkdtempSync(join(tmpdir(), `bench-up-${layout}-`));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  const children = childCounter(server);
  let side: ControllerSide | undefined;
  try {
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'baseline' } });
    const t0 = performance.now();
    const configMap = (i: number): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `b-${i}`, namespace: 'baseline' },
      data: { size: String(i) },
    });
    await createConcurrently(clients, perRound, (i) => kube.create(configMap(i)));
    const baseline = perRound / ((performance.now() - t0) / 1000);

    const log = pino({ level: 'silent' });
    const config: ControllersConfig = {
      kubeconfig,
      logLevel: 'silent',
      tenancy: { crossNamespaceRefs: true },
      scripts: { memoryLimitBytes: 512 * 2 ** 20, isolate: false, hide: [] },
      sourceDir: '.',
      concurrency,
      installCrds: true,
    };
    side =
      layout === 'in-process'
        ? new InProcessControllers(config, log)
        : new ControllersThread(config, {
            log,
            onCrash: (err) => {
              throw err;
            },
          });
    await side.start(new AbortController().signal);
    await kube.create(crd as KubeObject);
    await kube.create(itemFlow('default'));
    const t1 = performance.now();
    const item = (i: number): KubeObject => ({
      apiVersion: 'bench.flowops.io/v1',
      kind: 'Item',
      metadata: { name: `item-${i}`, namespace: 'default' },
      spec: { size: i },
    });
    await createConcurrently(clients, perRound, (i) => kube.create(item(i)));
    const deadline = Date.now() + 300_000;
    while (children('default') < perRound) {
      if (Date.now() > deadline) throw new Error(`${layout}: ${children('default')}/${perRound} children`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return { perSec: perRound / ((performance.now() - t1) / 1000), baseline };
  } finally {
    await side?.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Seen {
  perSec: number[];
  baseline: number[];
  ratio: number[];
}

export async function upLayoutsPhase(
  crd: object,
  perRound: number,
  rounds: number,
  concurrency: number,
  clients: number,
): Promise<LayoutsResult> {
  const seen: Record<ControllersLayout, Seen> = {
    'in-process': { perSec: [], baseline: [], ratio: [] },
    'worker-thread': { perSec: [], baseline: [], ratio: [] },
  };
  for (let round = 0; round < rounds; round++) {
    for (const layout of round % 2 === 0 ? LAYOUTS : [...LAYOUTS].reverse()) {
      const r = await oneRound({ layout, crd, perRound, concurrency, clients });
      seen[layout].perSec.push(r.perSec);
      seen[layout].baseline.push(r.baseline);
      seen[layout].ratio.push(r.perSec / r.baseline);
    }
  }
  const figures = (l: ControllersLayout): LayoutFigures => ({
    reconcilesPerSec: median(seen[l].perSec),
    baselinePerSec: median(seen[l].baseline),
    ratio: median(seen[l].ratio),
  });
  const layouts = { 'in-process': figures('in-process'), 'worker-thread': figures('worker-thread') };
  return { cores: availableParallelism(), load: loadavg()[0] ?? 0, layouts };
}
