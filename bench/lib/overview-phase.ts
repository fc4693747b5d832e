// The overview of N Flows, in chromium, while the Flows' statuses churn: the bytes the open page
// fetches per minute. The same-run baseline is what the page fetched before it updated by the
// row: the whole overview (its first read, measured) once per batch of changes it answered.
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../../src/kube/client.js';
import { countBytes } from './flow-page-phase.js';

export interface OverviewFigures {
  flows: number;
  /** One read of the whole overview. */
  fullBytes: number;
  readsPerMin: number;
  streamPerMin: number;
  /** Reads the page made under churn (each answers one batch of changes). */
  updateReads: number;
  /** Whole-overview reads under churn: a batch too big to name, or a new commit. */
  fullReads: number;
  /** Baseline: a whole-overview read per answered batch, per minute. */
  baselinePerMin: number;
}

const FULL = '/ui/api/overview';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function overviewPhase(opts: {
  browser: Browser;
  kube: KubeClient;
  base: string;
  names: string[];
  /** A Flow's status with this marker as its last error (or ready, without one). */
  status: (marker?: string) => Record<string, unknown>;
  churnSeconds: number;
  changesPerSecond: number;
}): Promise<OverviewFigures> {
  const { browser, kube, names } = opts;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const counter = await countBytes(await page.context().newCDPSession(page));
  await page.goto(`${opts.base}/ui/`);
  const allRows = (n: number): boolean => document.querySelectorAll('tr[data-flow]').length === n;
  await page.waitForFunction(allRows, names.length, { timeout: 120_000 });
  await page.locator('[data-connection="live"]').waitFor();
  const fullBytes = Math.max(
    ...counter
      .reads()
      .filter((r) => r.path === FULL)
      .map((r) => r.bytes),
  );
  const ref = (name: string) => ({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name });
  const streamBefore = counter.stream();
  const start = Date.now();
  let i = 0;
  while (Date.now() - start < opts.churnSeconds * 1000) {
    const name = names[(i * 7919) % names.length] ?? '';
    const status = opts.status(i % 2 === 0 ? `churn ${i}` : undefined);
    void kube.patch(ref(name), status, 'merge', { subresource: 'status' }).catch(() => undefined);
    i++;
    await sleep(1000 / opts.changesPerSecond);
  }
  // The last batch's read lands within a second or so.
  await sleep(1500);
  const minutes = (Date.now() - start) / 60_000;
  const reads = counter.reads();
  await page.close();
  return {
    flows: names.length,
    fullBytes,
    readsPerMin: reads.reduce((sum, r) => sum + r.bytes, 0) / minutes,
    streamPerMin: (counter.stream() - streamBefore) / minutes,
    updateReads: reads.length,
    fullReads: reads.filter((r) => r.path === FULL).length,
    baselinePerMin: (fullBytes * reads.length) / minutes,
  };
}
