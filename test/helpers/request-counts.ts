import type { Counter, Registry } from 'prom-client';
import { WRITE_VERBS } from '../../src/apiserver/http/request-metrics.js';

/** The server's own apiserver_request_total, as `VERB resource[/subresource]` → count. */
export async function requestCounts(registry: Registry): Promise<Map<string, number>> {
  const metric = registry.getSingleMetric('apiserver_request_total') as Counter | undefined;
  const out = new Map<string, number>();
  if (!metric) return out;
  for (const v of (await metric.get()).values) {
    const l = v.labels as Record<string, string>;
    const key = `${l.verb} ${l.resource}${l.subresource ? `/${l.subresource}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + v.value);
  }
  return out;
}

/** The writes made between two readings, by `VERB resource[/subresource]`; only those that moved. */
export function writesBetween(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of after) {
    const d = n - (before.get(key) ?? 0);
    if (d > 0 && WRITE_VERBS.has(key.split(' ')[0] ?? '')) out[key] = d;
  }
  return out;
}

/** How many requests of one `VERB resource[/subresource]` were made between two readings. */
export const requestsBetween = (before: Map<string, number>, after: Map<string, number>, key: string): number =>
  (after.get(key) ?? 0) - (before.get(key) ?? 0);
