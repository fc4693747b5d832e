import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOn } from '../listen-on.js';
import type { Registry } from 'prom-client';
import { writeMetrics } from './route.js';

export interface MetricsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  /** /readyz answers 200 only when this says so (informers synced, queue connected). */
  ready?: () => boolean;
  /** Runs before each scrape, for gauges read from elsewhere (queue depth). */
  beforeScrape?: () => Promise<void>;
  /** Further routes on the same listener (the web view on `flowops run`); true when one answered. */
  routes?: Array<(req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>>;
}

export interface MetricsServer {
  server: Server;
  /** host:port actually bound (port 0 picks one). */
  address: string;
  close(): Promise<void>;
}

/** The metrics listener: /metrics (Prometheus text), /healthz (the process serves), /readyz. */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') return void writeMetrics(res, opts.registry, opts.beforeScrape);
    if (path === '/healthz') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    if (path === '/readyz') {
      const ok = opts.ready?.() ?? true;
      return void res.writeHead(ok ? 200 : 503, { 'Content-Type': 'text/plain' }).end(ok ? 'ok' : 'not ready');
    }
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://metrics.invalid');
      for (const route of opts.routes ?? []) if (await route(req, res, url)) return;
      res.writeHead(404).end('not found');
    })();
  });
  const address = await listenOn(server, opts.host, opts.port);
  return {
    server,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
