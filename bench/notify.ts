// Notification benchmark: prints figures, asserts nothing.
//   npx tsx bench/notify.ts [--objects 1000] [--window 10] [--per-round 300] [--rounds 4] [--concurrency 16]
// One process, as `flowops up` runs: the embedded API server, the Flow controllers, a worker pool
// and the notifier (src/notify), with two local webhook receivers as Providers (generic and slack).
// Phase 1 (storm): --objects watched Items are Ready; their Flow then changes to a step that fails
// for good, so every Item stalls at once (one ReconcileStalled Event each). Figures: per provider,
// the messages it got, the events in them, and when they came relative to the grouping window.
// Phase 2 (cost): reconciles/s with alerts off (no notifier) vs on (a notifier with an Alert over
// every Event of the side's namespace), in alternating rounds on the same server; goal ≥ 0.95×.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { KubeClient } from '../src/kube/client.js';
import type { KubeObject } from '../src/kube/types.js';
import { Notifier } from '../src/notify/index.js';
import { startControllers } from '../src/runtime/controllers.js';
import { startTestServer } from '../test/helpers/apiserver.js';
import { alternatingRounds, childCounter, itemFlow } from './lib/alternating-rounds.js';
import { ITEM_CRD } from './lib/item-flow.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('objects', 1000);
const WINDOW_S = arg('window', 10);
const PER_ROUND = arg('per-round', 300);
const ROUNDS = arg('rounds', 4);
const WORKERS = arg('concurrency', 16);
const CLIENTS = 16;

const CRD = ITEM_CRD;

interface Received {
  at: number;
  total: number;
}

async function receiver(): Promise<{ url: string; got: Received[]; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { total?: number; text?: string };
      // generic carries `total`; slack says "N events" in its text.
      const total = body.total ?? Number(/(\d+) events/.exec(body.text ?? '')?.[1] ?? 1);
      got.push({ at: performance.now(), total });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, server };
}

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 300_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const providerAndAlert = (ns: string, name: string, type: string, url: string, window: string): KubeObject[] => [
  { apiVersion: 'flowops.io/v1', kind: 'Provider', metadata: { name, namespace: ns }, spec: { type, address: url } },
  {
    apiVersion: 'flowops.io/v1',
    kind: 'Alert',
    metadata: { name, namespace: ns },
    spec: { providerRef: { name }, eventSources: [{ kind: '*' }], groupWindow: window, suppressWindow: '1h' },
  },
];

async function main(): Promise<void> {
  const ts = await startTestServer();
  const kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  const log = pino({ level: 'silent' });
  const children = childCounter(ts.server);
  const controllers = await startControllers({ kube, log, installCrds: true, concurrency: WORKERS });
  const hooks = { generic: await receiver(), slack: await receiver() };
  try {
    await kube.create(CRD as KubeObject);
    // Phase 1: the storm.
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'storm' } });
    await kube.create(itemFlow('storm'));
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < N) {
          const i = next++;
          await kube.create({
            apiVersion: 'bench.flowops.io/v1',
            kind: 'Item',
            metadata: { name: `item-${i}`, namespace: 'storm' },
            spec: { size: i },
          } as KubeObject);
        }
      }),
    );
    await until('every Item reconciled', () => children('storm') >= N);
    for (const [type, h] of Object.entries(hooks))
      for (const o of providerAndAlert('storm', type, type, h.url, `${WINDOW_S}s`)) await kube.create(o);
    const notifier = new Notifier({ kube, log });
    notifier.start();
    await until('the notifier has listed', () => notifier.synced());
    const t0 = performance.now();
    // A child name the API server refuses (422): terminal, so every Item stalls.
    await kube.patch(
      { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'storm', name: 'bench' },
      {
        spec: {
          reconcile: {
            steps: [
              {
                name: 'child',
                type: 'kubectl',
                action: 'apply',
                manifests:
                  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Not_Valid_{{ .Resource.metadata.name }}\n',
              },
            ],
          },
        },
      },
      'merge',
    );
    const stalledEvents = async (): Promise<number> =>
      (await kube.list('v1', 'Event', { namespace: 'storm' })).items.filter(
        (e) => (e as { reason?: string }).reason === 'ReconcileStalled',
      ).length;
    await until('every Item stalled', async () => (await stalledEvents()) >= N);
    const allStalled = (performance.now() - t0) / 1000;
    await until('a message at each provider', () => Object.values(hooks).every((h) => h.got.length > 0), 120_000);
    // Stay one more window, so a second message (events that came after the first window) would be seen.
    const quiet = performance.now() + WINDOW_S * 1000 + 2000;
    await until('one more window', () => performance.now() > quiet);
    await notifier.stop();

    // Phase 2: reconcile rate with alerts off vs on.
    for (const ns of ['off', 'on']) {
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await kube.create(itemFlow(ns));
    }
    for (const o of providerAndAlert('on', 'generic', 'generic', hooks.generic.url, '2s')) await kube.create(o);
    const messagesBefore = hooks.generic.got.length;
    const { perSec, ratio } = await alternatingRounds({
      kube,
      sides: ['off', 'on'] as const,
      perRound: PER_ROUND,
      rounds: ROUNDS,
      clients: CLIENTS,
      children,
      around: (side) => {
        if (side === 'off') return undefined;
        const n = new Notifier({ kube, log });
        n.start();
        return () => void n.stop();
      },
    });

    console.log(
      'FlowOps notification benchmark (one process: embedded API server + controllers + worker pool + notifier)',
    );
    console.log(
      `storm: ${N} watched Items stalled at once (${await stalledEvents()} ReconcileStalled Events, ` +
        `all written ${allStalled.toFixed(2)} s after the Flow changed); grouping window ${WINDOW_S} s`,
    );
    for (const [name, h] of Object.entries(hooks)) {
      const storm = h.got.slice(
        0,
        name === 'generic' ? h.got.length - (hooks.generic.got.length - messagesBefore) : h.got.length,
      );
      const when = storm.map((m) => `${((m.at - t0) / 1000).toFixed(2)} s (${m.total} events)`).join(', ');
      console.log(`  provider ${name}: ${storm.length} message(s) at ${when}`);
    }
    console.log(`reconcile rate, ${ROUNDS} alternating rounds of ${PER_ROUND} Items, ${WORKERS} workers:`);
    console.log(`  alerts off (no notifier):                 ${perSec.off.toFixed(1)} reconciles/s`);
    console.log(`  alerts on (notifier + Alert on every Event): ${perSec.on.toFixed(1)} reconciles/s`);
    console.log(
      `  on / off, median of rounds: ${ratio.toFixed(3)} (goal ≥ 0.95); ` +
        `messages sent during the on rounds: ${hooks.generic.got.length - messagesBefore}`,
    );
  } finally {
    await controllers.stop();
    for (const h of Object.values(hooks)) h.server.close();
    await ts.stop();
  }
}

await main();
