// What an open web view costs the engine: reconciles/s on one embedded server with the web view
// mounted, with no page open vs with one page open on the overview. The open page is played by a
// client that does what ui/src/live.ts does: it holds the change stream (/ui/api/stream) and, on
// every batch of changes, refetches the overview (one request in flight, the last change wins).
// The stream's watches follow the Flow's watched kind, so every reconcile it sees costs a refetch.
// Rounds alternate, so neither side gets all the warm-up.
import { request } from 'node:http';
import pino from 'pino';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startControllers } from '../../src/runtime/controllers.js';
import { uiRoute } from '../../src/ui-server/route.js';
import { startTestServer } from '../../test/helpers/apiserver.js';
import { alternatingRounds, childCounter, itemFlow } from './alternating-rounds.js';

export interface UiStreamFigures {
  closedPerSec: number;
  openPerSec: number;
  /** Overview refetches the open page made. */
  refetches: number;
  /** Median over the rounds of open ÷ closed. */
  ratio: number;
}

/** The open page: the stream, and an overview refetch per batch of changes. */
function openPage(base: string): { close(): void; refetches: () => number } {
  let refetches = 0;
  let inFlight = false;
  let again = false;
  const refetch = (): void => {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    refetches++;
    void fetch(`${base}/ui/api/overview`)
      .then((r) => r.arrayBuffer())
      .finally(() => {
        inFlight = false;
        if (again) {
          again = false;
          refetch();
        }
      });
  };
  const req = request(`${base}/ui/api/stream`, { headers: { Accept: 'text/event-stream' } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      if (d.includes('event: changes')) refetch();
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { close: () => req.destroy(), refetches: () => refetches };
}

export async function uiStreamPhase(
  crd: object,
  perRound: number,
  rounds: number,
  workers: number,
  clients: number,
): Promise<UiStreamFigures> {
  const ts = await startTestServer();
  const server = ts.server;
  const kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  const log = pino({ level: 'silent' });
  const ui = uiRoute({ kube, log, loopbackOnly: true });
  server.addRoute((req, res, url) => ui.handle(req, res, url));
  const children = childCounter(server);
  const controllers = await startControllers({ kube, log, installCrds: true, concurrency: workers });
  const base = server.url.replace('localhost', '127.0.0.1');
  try {
    await kube.create(crd as KubeObject);
    for (const ns of ['closed', 'open']) {
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await kube.create(itemFlow(ns));
    }
    let refetches = 0;
    // The page is open only during the "open" rounds (it connects, gets hello, fetches, follows).
    const { perSec, ratio } = await alternatingRounds({
      kube,
      sides: ['closed', 'open'] as const,
      perRound,
      rounds,
      clients,
      children,
      around: (ns) => {
        if (ns !== 'open') return undefined;
        const page = openPage(base);
        return () => {
          refetches += page.refetches();
          page.close();
        };
      },
    });
    return { closedPerSec: perSec.closed, openPerSec: perSec.open, refetches, ratio };
  } finally {
    await ui.stop();
    await controllers.stop();
    await ts.stop();
  }
}
