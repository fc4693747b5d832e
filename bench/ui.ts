// Web view benchmark: prints figures, asserts nothing.
//   npx tsx bench/ui.ts [--flows 1000] [--changes 30] [--objects 1000,10000] [--churn-seconds 20] [--rate 10]
// The embedded API server with the web view mounted, N Flows whose status counts 10 watched
// objects each (the overview reads counts from Flow status; no controllers run, so the figures are
// the UI's own), and Debian's chromium driven by playwright-core:
//  1. first meaningful paint of the overview: navigation until every Flow row is in the DOM (goal ≤ 1 s);
//  2. a change reaching the open page: a Flow's status patched until its row shows it, p50/p99 (goal ≤ 1 s);
//  3. server CPU per change while a page is open (the stream plus the refetch it causes);
//  4. the overview under churn (its Flows' statuses change at --rate): bytes fetched per minute, beside
//     the same-run baseline of a whole-overview read per change batch;
//  5. the Flow page at --objects 1000,10000 watched objects: render time, and bytes fetched per minute
//     while its objects churn, beside the same-run baseline of a whole-list read per change batch.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parse } from 'yaml';
import { startApiServer } from '../src/apiserver/index.js';
import { KubeClient } from '../src/kube/client.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import type { KubeObject } from '../src/kube/types.js';
import { uiRoute } from '../src/ui-server/route.js';
import { chromiumPath, launchChromium } from '../test/helpers/browser.js';
import { ROOT } from '../test/helpers/cli.js';
import { waitFor } from '../test/helpers/wait.js';
import { flowPagePhase } from './lib/flow-page-phase.js';
import { overviewPhase } from './lib/overview-phase.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const FLOWS = arg('flows', 1000);
const CHANGES = arg('changes', 30);
const WATCHED_PER_FLOW = 10;
const listArg = (name: string, def: number[]): number[] => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? '').split(',').map(Number) : def;
};
const OBJECTS = listArg('objects', [1000, 10_000]);
const CHURN_SECONDS = arg('churn-seconds', 20);
const CHANGES_PER_SECOND = arg('rate', 10);

const percentile = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function inBatches<T>(items: T[], size: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

if (!chromiumPath()) {
  process.stdout.write(
    'bench/ui.ts: no chromium (apt-get install -y chromium, or set FLOWOPS_CHROMIUM); nothing measured\n',
  );
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'flowops-bench-ui-'));
const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
const kubeconfig = join(dir, 'kubeconfig');
writeKubeconfig(kubeconfig, server.url);
const kube = KubeClient.fromKubeconfig(kubeconfig);
const ui = uiRoute({ kube, log: pino({ level: 'silent' }) });
server.addRoute((req, res, url) => ui.handle(req, res, url));

for (const file of ['flowops.io_flows.yaml', 'flowops.io_flowsources.yaml'])
  await kube.create(parse(readFileSync(join(ROOT, 'config', 'crd', file), 'utf8')) as KubeObject);
await waitFor(async () => (await kube.list('flowops.io/v1', 'Flow').catch(() => undefined)) !== undefined, {
  what: 'Flow CRD served',
});

const names = Array.from({ length: FLOWS }, (_, i) => `flow-${String(i).padStart(4, '0')}`);
const setup = Date.now();
await inBatches(names, 32, (name) =>
  kube.create({
    apiVersion: 'flowops.io/v1',
    kind: 'Flow',
    metadata: { name, namespace: 'default' },
    spec: {
      watch: { apiVersion: 'example.com/v1', kind: 'Database' },
      reconcile: { steps: [{ name: 'noop', type: 'script', script: 'true' }] },
    },
  }),
);
const readyStatus = (lastError?: string) => ({
  status: {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'Succeeded',
        message: `${WATCHED_PER_FLOW} of ${WATCHED_PER_FLOW} resources reconciled`,
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    ],
    resources: { watched: WATCHED_PER_FLOW, ready: WATCHED_PER_FLOW, notReady: 0, failed: 0 },
    ...(lastError ? { lastError } : {}),
  },
});
const flowRef = (name: string) => ({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name });
await inBatches(names, 32, (name) => kube.patch(flowRef(name), readyStatus(), 'merge', { subresource: 'status' }));
process.stdout.write(
  `setup: ${FLOWS} Flows (${FLOWS * WATCHED_PER_FLOW} watched objects counted in their status) in ${Date.now() - setup} ms\n`,
);

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
try {
  // 1. First meaningful paint: every Flow row rendered, from a cold navigation (the first run warms the server's discovery).
  const paints: number[] = [];
  for (let run = 0; run < 4; run++) {
    const start = Date.now();
    await page.goto(`${server.url}/ui/`);
    await page.waitForFunction((n) => document.querySelectorAll('tr[data-flow]').length === n, FLOWS, {
      timeout: 60_000,
    });
    if (run > 0) paints.push(Date.now() - start);
  }
  process.stdout.write(
    `overview with ${FLOWS} Flows, all rows painted: median ${percentile(paints, 50)} ms, max ${Math.max(...paints)} ms (goal ≤ 1000 ms)\n`,
  );

  // 2. A change reaching the open page, and 3. what it costs the server.
  await page.locator('[data-connection="live"]').waitFor();
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < CHANGES; i++) {
    const name = names[(i * 37) % FLOWS]!;
    const marker = `bench-change-${i}`;
    const start = Date.now();
    await kube.patch(flowRef(name), readyStatus(marker), 'merge', { subresource: 'status' });
    await page.waitForFunction(
      ([n, m]) => document.querySelector(`tr[data-flow="${n}"]`)?.textContent?.includes(m!) ?? false,
      [name, marker] as const,
      { timeout: 30_000, polling: 'raf' },
    );
    latencies.push(Date.now() - start);
  }
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(
    `change → open page: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms over ${CHANGES} changes (goal p99 ≤ 1000 ms)\n`,
  );
  process.stdout.write(
    `server CPU per change with one page open: ${((cpu.user + cpu.system) / 1000 / CHANGES).toFixed(1)} ms (API server, watch, stream and the overview refetch together)\n`,
  );

  // 4. The overview under churn, on a page of its own (the one above is closed: it would read beside it).
  await page.close();
  const kb = (b: number): string => `${(b / 1024).toFixed(1)} KB`;
  const o = await overviewPhase({
    browser,
    kube,
    base: server.url,
    names,
    status: (m) => readyStatus(m),
    churnSeconds: CHURN_SECONDS,
    changesPerSecond: CHANGES_PER_SECOND,
  });
  process.stdout.write(
    `overview with ${o.flows} Flows (${o.flows * WATCHED_PER_FLOW} objects counted): one whole read ${kb(o.fullBytes)}\n` +
      `  under churn (${CHANGES_PER_SECOND} Flow changes/s for ${CHURN_SECONDS} s): ${kb(o.readsPerMin)}/min read ` +
      `in ${o.updateReads} reads (${o.fullReads} whole) + ${kb(o.streamPerMin)}/min stream; ` +
      `baseline, the whole overview per batch: ${kb(o.baselinePerMin)}/min\n`,
  );

  // 5. The Flow page of many objects.
  const figures = await flowPagePhase({
    browser,
    kube,
    base: server.url,
    sizes: OBJECTS,
    churnSeconds: CHURN_SECONDS,
    changesPerSecond: CHANGES_PER_SECOND,
  });
  for (const f of figures) {
    process.stdout.write(
      `Flow page with ${f.objects} objects: first rows painted in ${f.renderMs} ms (median; the overview above: ` +
        `${percentile(paints, 50)} ms with ${FLOWS} Flows); one whole read ${kb(f.fullBytes)}\n` +
        `  under churn (${CHANGES_PER_SECOND} changes/s for ${CHURN_SECONDS} s): ${kb(f.readsPerMin)}/min read ` +
        `in ${f.updateReads} reads (${f.fullReads} whole) + ${kb(f.streamPerMin)}/min stream; ` +
        `baseline, the whole list per batch: ${kb(f.baselinePerMin)}/min\n`,
    );
  }
} finally {
  await browser.close();
  await ui.stop();
  await server.close();
}
