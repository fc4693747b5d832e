import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** /metrics as a route on another HTTP listener (the embedded API server in `flowops up`). */
export function metricsRoute(registry: Registry, beforeScrape?: () => Promise<void>) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== '/metrics' || req.method !== 'GET') return false;
    await writeMetrics(res, registry, beforeScrape);
    return true;
  };
}

/** Answers one scrape; a gauge that cannot be refreshed leaves the last value rather than failing the scrape. */
export async function writeMetrics(
  res: ServerResponse,
  registry: Registry,
  beforeScrape?: () => Promise<void>,
): Promise<void> {
  try {
    await beforeScrape?.().catch(() => undefined);
    const body = await registry.metrics();
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(body);
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
}
