// The Flow page of a Flow watching N objects (1,000, then 10,000), in chromium: how long until its
// first rows are painted, and the bytes the open page fetches per minute while its objects churn.
// The same-run baseline is what the page fetched before it updated by the change: the whole list
// (the page's first read, measured) once per batch of changes it answered.
import type { Browser, CDPSession } from 'playwright-core';
import type { KubeClient } from '../../src/kube/client.js';
import { createItems, createManyFlow, itemRef, readyStatus } from '../../test/helpers/many-watched.js';

export interface FlowPageFigures {
  objects: number;
  /** Navigation until the object count and the first rows are on the page, median of the runs after the first. */
  renderMs: number;
  /** One read of the whole page (its objects and definition). */
  fullBytes: number;
  /** Bytes per minute under churn: the page's reads, and the change stream's messages. */
  readsPerMin: number;
  streamPerMin: number;
  /** Reads the page made under churn (each answers one batch of changes). */
  updateReads: number;
  /** Whole-page reads under churn: a batch too big to name, or a new definition. */
  fullReads: number;
  /** Baseline: a whole-list read per answered batch, per minute. */
  baselinePerMin: number;
}

/** Counts the bytes the page receives: API answers (not the stream) and the stream's messages. */
export interface Read {
  path: string;
  bytes: number;
}

export async function countBytes(cdp: CDPSession): Promise<{ reads: () => Read[]; stream: () => number }> {
  const urls = new Map<string, string>();
  let stream = 0;
  const seen: Read[] = [];
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    const url = urls.get(e.requestId) ?? '';
    if (!url.includes('/ui/api/') || url.endsWith('/ui/api/stream')) return;
    seen.push({ path: new URL(url).pathname, bytes: e.encodedDataLength });
  });
  cdp.on('Network.eventSourceMessageReceived', (e) => void (stream += e.data.length + e.eventName.length));
  return { reads: () => seen.splice(0), stream: () => stream };
}

const FULL = '/ui/api/flows/default/many';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function flowPagePhase(opts: {
  browser: Browser;
  kube: KubeClient;
  base: string;
  sizes: number[];
  churnSeconds: number;
  changesPerSecond: number;
}): Promise<FlowPageFigures[]> {
  const { browser, kube } = opts;
  await createManyFlow(kube);
  const figures: FlowPageFigures[] = [];
  let created = 0;
  for (const n of opts.sizes) {
    await createItems(kube, created, n);
    created = n;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const counter = await countBytes(await page.context().newCDPSession(page));
    const paints: number[] = [];
    for (let run = 0; run < 4; run++) {
      const start = Date.now();
      await page.goto(`${opts.base}/ui/flows/default/many`);
      await page.locator('[data-count]', { hasText: `${n} objects` }).waitFor({ timeout: 120_000 });
      await page.locator('tr[data-object]').first().waitFor();
      if (run > 0) paints.push(Date.now() - start);
    }
    await page.locator('[data-connection="live"]').waitFor();
    const fullBytes = Math.max(
      ...counter
        .reads()
        .filter((r) => r.path === FULL)
        .map((r) => r.bytes),
    );
    // Churn: objects turn not ready and back, spread over the list, at a steady rate.
    const streamBefore = counter.stream();
    const start = Date.now();
    let i = 0;
    while (Date.now() - start < opts.churnSeconds * 1000) {
      const k = (i * 7919) % n;
      void kube.patch(itemRef(k), { status: readyStatus(i % 2 === 0, `churn ${i}`) }, 'merge').catch(() => undefined);
      i++;
      await sleep(1000 / opts.changesPerSecond);
    }
    // The last batch's read lands within a second or so.
    await sleep(1500);
    const minutes = (Date.now() - start) / 60_000;
    const reads = counter.reads();
    const fullReads = reads.filter((r) => r.path === FULL).length;
    const updateReads = reads.length;
    figures.push({
      objects: n,
      renderMs: [...paints].sort((a, b) => a - b)[Math.floor(paints.length / 2)] ?? 0,
      fullBytes,
      readsPerMin: reads.reduce((sum, r) => sum + r.bytes, 0) / minutes,
      streamPerMin: (counter.stream() - streamBefore) / minutes,
      updateReads,
      fullReads,
      baselinePerMin: (fullBytes * updateReads) / minutes,
    });
    await page.close();
  }
  return figures;
}
