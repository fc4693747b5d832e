// The web view of `flowops run`: every person signs in with their own Kubernetes token and sees
// what their RBAC lets them see (ui-server/sessions.ts). On the metrics listener by default (the
// chart's Service points at it), on a listener of its own with --ui-listen, or off with --no-ui.

import { createServer } from 'node:http';
import { listenOn } from '../listen-on.js';
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { UiRoute } from '../ui-server/index.js';
import { isLoopback, parseListen } from './listen.js';

export interface RunUiFlags {
  ui: boolean;
  uiListen?: string;
  metricsListen: string;
}

export interface RunUi {
  /** Mount on the metrics listener (undefined: off, or on its own listener). */
  route?: UiRoute['handle'];
  close(): Promise<void>;
}

export async function startRunUi(flags: RunUiFlags, kube: KubeClient, log: Logger): Promise<RunUi> {
  if (!flags.ui) return { close: async () => undefined };
  const { uiRoute } = await import('../ui-server/route.js');
  const listen = parseListen(flags.uiListen ?? flags.metricsListen);
  const ui = uiRoute({ kube, log, access: 'per-user', loopbackOnly: isLoopback(listen.host) });
  if (!flags.uiListen) {
    log.info({ path: '/ui/' }, 'web view on the metrics listener');
    return { route: (req, res, url) => ui.handle(req, res, url), close: () => ui.stop() };
  }
  const server = createServer((req, res) => {
    void ui.handle(req, res, new URL(req.url ?? '/', 'http://ui.invalid')).then((answered) => {
      if (!answered) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('the web view is at /ui/\n');
    });
  });
  const address = await listenOn(server, listen.host, listen.port);
  log.info({ address }, 'web view listening');
  process.stdout.write(`web view on http://${address}/ui/\n`);
  return {
    close: async () => {
      await ui.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
