// The engine bench's write counts, read from the API server's own apiserver_request_total: a
// resync of every settled object (every key run again, nothing changed) and a changed run (every
// watched object's spec patched by the bench, whose own patches are left out of the count).

import type { Counter, Registry } from 'prom-client';
import type { Controllers } from '../../src/runtime/controllers.js';
import type { FlowOpsMetrics } from '../../src/metrics/registry.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE', 'DELETECOLLECTION']);

export async function writeCounts(server: Registry, all = false): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const metric = server.getSingleMetric('apiserver_request_total') as Counter | undefined;
  for (const v of metric ? (await metric.get()).values : []) {
    const l = v.labels as Record<string, string>;
    if (!all && !WRITES.has(l.verb ?? '')) continue;
    const key = `${l.verb} ${l.resource}${l.subresource ? `/${l.subresource}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + v.value);
  }
  return out;
}

export function diff(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, n] of after) if (n - (before.get(k) ?? 0) > 0) out.set(k, n - (before.get(k) ?? 0));
  return out;
}

export const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
export const describe = (m: Map<string, number>): string =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

async function reconciles(metrics: FlowOpsMetrics): Promise<number> {
  return (await metrics.reconcileTotal.get()).values.reduce((n, v) => n + v.value, 0);
}

/**
 * Until the queue is empty and stayed so for `quietMs` (the Flow status debounce is 200 ms);
 * resolves with the last time (performance.now()) the queue was seen busy.
 */
export async function settle(controllers: Pick<Controllers, 'queue'>, quietMs = 1000): Promise<number> {
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    if (controllers.queue.depth() > 0) since = performance.now();
    await new Promise((r) => setTimeout(r, 20));
  }
  return since;
}

export interface WriteFigures {
  resyncRuns: number;
  resyncWrites: Map<string, number>;
  /** Seconds from enqueueing every key to the queue's last busy moment. */
  resyncSeconds: number;
  changedRuns: number;
  changedWrites: Map<string, number>;
  /** Seconds from the first of the bench's patches to the queue's last busy moment. */
  changedSeconds: number;
}

/**
 * `patchAll` patches every watched object (the bench's own writes, `ownKey` in the counts) and
 * resolves when every child shows the change.
 */
export async function writePhases(
  controllers: Controllers,
  metrics: FlowOpsMetrics,
  server: Registry,
  count: number,
  patchAll: () => Promise<void>,
  ownKey: string,
): Promise<WriteFigures> {
  await settle(controllers);
  const r0 = await reconciles(metrics);
  const w0 = await writeCounts(server);
  const t0 = performance.now();
  const keys = controllers.flows.watches.allKeys();
  for (const key of keys) controllers.queue.add(key);
  // A memo'd no-op run can finish before settle's first look: wait for the runs themselves too.
  while ((await reconciles(metrics)) - r0 < keys.length) await new Promise((r) => setImmediate(r));
  const ran = performance.now();
  const resyncSeconds = (Math.max(ran, await settle(controllers)) - t0) / 1000;
  // Run records are written in batches a second later: every one this phase made is counted in it.
  await controllers.flows.flushRecords();
  const resyncRuns = (await reconciles(metrics)) - r0;
  const resyncWrites = diff(w0, await writeCounts(server));

  const r1 = await reconciles(metrics);
  const w1 = await writeCounts(server);
  const t1 = performance.now();
  await patchAll();
  const changedSeconds = (Math.max(performance.now(), await settle(controllers)) - t1) / 1000;
  await controllers.flows.flushRecords();
  const changedRuns = (await reconciles(metrics)) - r1;
  const changedWrites = diff(w1, await writeCounts(server));
  const own = changedWrites.get(ownKey) ?? 0;
  if (own <= count) changedWrites.delete(ownKey);
  else changedWrites.set(ownKey, own - count);
  return { resyncRuns, resyncWrites, resyncSeconds, changedRuns, changedWrites, changedSeconds };
}

export function printWrites(f: WriteFigures, count: number): void {
  console.log(
    `no-op resync of ${count} settled objects (every key run again): ${f.resyncRuns} reconciles, ${total(f.resyncWrites)} API writes (${describe(f.resyncWrites)}) (goal 0)`,
  );
  console.log(
    `changed run (each object's spec patched, the bench's ${count} patches left out): ${f.changedRuns} reconciles, ${total(f.changedWrites)} API writes = ${(total(f.changedWrites) / count).toFixed(2)} per object with its child (${describe(f.changedWrites)}) (goal ≤ 2)`,
  );
}
