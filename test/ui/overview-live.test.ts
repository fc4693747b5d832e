import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { uiRoute, type UiRoute } from '../../src/ui-server/route.js';
import type { OverviewRows } from '../../src/ui-server/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// The overview of 300 Flows and a FlowSource, in a real browser against the embedded API server
// and the web view (no controllers: the test changes the objects itself). A change reaches the open
// page as a read of the changed row alone; only a new commit of a source reads the whole overview.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/overview-live.test.ts: ${skip}`);

const SHOTS = join(ROOT, 'test-results', 'ui');
const COUNT = 300;
const OVERVIEW = '/ui/api/overview';
const flowName = (i: number): string => `flow-${String(i).padStart(4, '0')}`;
const flowRef = (name: string) => ({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name });
const SOURCE = { apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name: 'flows' };
const flowSpec = (apiVersion: string, kind: string) => ({
  watch: { apiVersion, kind },
  reconcile: { steps: [{ name: 'noop', type: 'script', script: 'true' }] },
});
const revision = (n: number): string => `main@sha1:${String(n).repeat(40).slice(0, 40)}`;

const flowStatus = (lastError?: string) => ({
  status: {
    conditions: [
      {
        type: 'Ready',
        status: lastError ? 'False' : 'True',
        reason: lastError ? 'ReconcileFailed' : 'Succeeded',
        message: '3 of 3 resources reconciled',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
    resources: { watched: 3, ready: lastError ? 2 : 3, notReady: lastError ? 1 : 0, failed: 0 },
    ...(lastError ? { lastError } : {}),
  },
});

let ts: TestServer;
let kube: KubeClient;
let ui: UiRoute;
let browser: Browser;
type Read = { url: string; bytes: number };
/** Every web view API answer each open page read (not the stream): its path and query, and its body's bytes. */
const readsOf = new WeakMap<Page, Read[]>();
const pages: Page[] = [];

async function openOverview(
  viewport: { width: number; height: number },
  phone = false,
): Promise<{ page: Page; reads: Read[] }> {
  const touch = phone ? { hasTouch: true, isMobile: true } : {};
  const page = await browser.newPage({ viewport, colorScheme: 'light', ...touch });
  pages.push(page);
  const reads: Read[] = [];
  readsOf.set(page, reads);
  page.on('requestfinished', (req) => {
    const u = new URL(req.url());
    if (!u.pathname.startsWith('/ui/api/') || u.pathname === '/ui/api/stream') return;
    void req.sizes().then((s) => reads.push({ url: `${u.pathname}${u.search}`, bytes: s.responseBodySize }));
  });
  await page.goto(`${ts.server.url}/ui/`);
  await page
    .locator('tr[data-flow]')
    .nth(COUNT - 1)
    .waitFor({ timeout: 30_000 });
  await page.locator('[data-connection="live"]').waitFor();
  return { page, reads };
}

/** Changes one Flow's status and waits for its row to show it; the reads the page made for it. */
async function changeAndRead(page: Page, i: number, marker: string): Promise<Read[]> {
  const reads = readsOf.get(page) ?? [];
  const from = reads.length;
  await kube.patch(flowRef(flowName(i)), flowStatus(marker), 'merge', { subresource: 'status' });
  await page.locator(`tr[data-flow="${flowName(i)}"]`, { hasText: marker }).waitFor({ timeout: 10_000 });
  await waitFor(() => reads.length > from, { what: 'the update read recorded' });
  return reads.slice(from);
}

describe.skipIf(skip !== undefined)('the overview updates the rows that changed', () => {
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'ui', 'dist', 'index.html'))) {
      const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
      if (built.status !== 0) throw new Error('could not build the web view');
    }
    mkdirSync(SHOTS, { recursive: true });
    ts = await startTestServer();
    kube = KubeClient.fromKubeconfig(ts.kubeconfig);
    ui = uiRoute({ kube, log: pino({ level: 'silent' }) });
    ts.server.addRoute((req, res, url) => ui.handle(req, res, url));
    for (const file of ['flowops.io_flows.yaml', 'flowops.io_flowsources.yaml']) {
      await kube.create(parse(readFileSync(join(ROOT, 'config', 'crd', file), 'utf8')) as KubeObject);
    }
    const served = (): Promise<boolean> =>
      kube.list('flowops.io/v1', 'FlowSource').then(
        () => true,
        () => false,
      );
    await waitFor(served, { what: 'CRDs served' });
    const spec = flowSpec('example.com/v1', 'Database');
    for (let i = 0; i < COUNT; i += 30) {
      await Promise.all(
        Array.from({ length: 30 }, async (_, j) => {
          const name = flowName(i + j);
          await kube.create({ ...flowRef(name), metadata: { name, namespace: 'default' }, spec });
          await kube.patch(flowRef(name), flowStatus(), 'merge', { subresource: 'status' });
        }),
      );
    }
    const sourceSpec = { url: 'https://git.example.com/flows.git', ref: { branch: 'main' } };
    await kube.create({ ...SOURCE, metadata: { name: SOURCE.name, namespace: SOURCE.namespace }, spec: sourceSpec });
    const sourceStatus = { ...flowStatus().status, lastAppliedRevision: revision(1) };
    await kube.patch(SOURCE, { status: sourceStatus }, 'merge', { subresource: 'status' });
    browser = await launchChromium();
  }, 180_000);

  afterEach(async () => {
    // A page left open by a failed test would go on reading beside the next test's.
    for (const p of pages.splice(0)) await p.close();
  });

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await ts?.stop();
  });

  it('a Flow change reads that row alone and updates it in place, on a desktop', async () => {
    const { page, reads } = await openOverview({ width: 1280, height: 900 });
    const full = reads.find((r) => r.url === OVERVIEW);
    expect(full?.bytes).toBeGreaterThan(50_000);
    // The feed's first listing is a change per object (answered by reading it all once more): wait it out.
    await changeAndRead(page, 1, 'warm-up');
    const update = await changeAndRead(page, 7, '<b>step "x" failed</b>');
    expect(update.map((r) => r.url)).toEqual([`${OVERVIEW}/rows?flow=${encodeURIComponent(`default/${flowName(7)}`)}`]);
    expect(update[0]?.bytes).toBeLessThan(1_000);
    // The row is updated in place, escaped; the summary counts it.
    expect(await page.locator(`tr[data-flow="${flowName(7)}"]`).innerText()).toContain('<b>step "x" failed</b>');
    expect(await page.locator('main b').count()).toBe(0);
    await page.locator('[data-summary]', { hasText: '2 not ready' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'overview-live.png') });

    // A new Flow is added in order and a deleted one leaves, without reading the overview again.
    const from = reads.length;
    const added = { name: 'flow-0000a', namespace: 'default' };
    await kube.create({ ...flowRef(added.name), metadata: added, spec: flowSpec('v1', 'ConfigMap') });
    await page.locator('tr[data-flow="flow-0000a"]').waitFor({ timeout: 10_000 });
    const firstThree = (rows: Element[]): Array<string | null> =>
      rows.slice(0, 3).map((r) => r.getAttribute('data-flow'));
    const order = await page.locator('tr[data-flow]').evaluateAll(firstThree);
    expect(order).toEqual([flowName(0), 'flow-0000a', flowName(1)]);
    await kube.delete(flowRef(flowName(2)));
    await page.locator('[data-summary]', { hasText: `${COUNT} Flows` }).waitFor({ timeout: 10_000 });
    expect(await page.locator(`tr[data-flow="${flowName(2)}"]`).count()).toBe(0);
    // An Event enters the recent changes at the top, read by itself.
    await kube.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'flow-0003.marker', namespace: 'default' },
      involvedObject: { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: flowName(3) },
      type: 'Warning',
      reason: 'Marker',
      message: 'the newest event',
      lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    });
    await page.locator('table.events tr', { hasText: 'the newest event' }).waitFor({ timeout: 10_000 });
    const eventRead = (): boolean => reads.slice(from).some((r) => r.url.includes('event=default%2Fflow-0003.marker'));
    await waitFor(eventRead, { what: 'the event read' });
    expect(reads.slice(from).filter((r) => r.url === OVERVIEW)).toEqual([]);
  }, 90_000);

  it('a new commit of a source reads the whole overview once', async () => {
    const { page, reads } = await openOverview({ width: 1280, height: 900 });
    await changeAndRead(page, 4, 'settled');
    const from = reads.length;
    await kube.patch(SOURCE, { status: { lastAppliedRevision: revision(2) } }, 'merge', { subresource: 'status' });
    await page.locator('tr[data-source="flows"]', { hasText: '2222222' }).waitFor({ timeout: 10_000 });
    const wholeRead = (): boolean => reads.slice(from).some((r) => r.url === OVERVIEW);
    await waitFor(wholeRead, { what: 'the whole overview read after the new commit' });
    expect(reads.slice(from).map((r) => r.url)).toEqual([`${OVERVIEW}/rows?source=default%2Fflows`, OVERVIEW]);
  }, 60_000);

  it('on a 390 px phone, a change updates the row with a small keyed read and nothing scrolls sideways', async () => {
    const { page } = await openOverview({ width: 390, height: 844 }, true);
    await changeAndRead(page, 5, 'warm-up');
    const update = await changeAndRead(page, 9, 'phone sees it');
    expect(update.map((r) => r.url)).toEqual([`${OVERVIEW}/rows?flow=${encodeURIComponent(`default/${flowName(9)}`)}`]);
    expect(update[0]?.bytes).toBeLessThan(1_000);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.locator(`tr[data-flow="${flowName(9)}"]`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'overview-live-phone.png') });
  }, 60_000);

  it('bounds a row read: at most 100 keys; keys that name nothing are gone', async () => {
    const keys = Array.from({ length: 101 }, (_, i) => `flow=default/${flowName(i)}`).join('&');
    const tooMany = await fetch(`${ts.server.url}${OVERVIEW}/rows?${keys}`);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toContain('at most 100');
    const odd = ['no-slash', `default/${'x'.repeat(10_000)}`, 'default/<b>x</b>', `default/${flowName(3)}`];
    const query = [...odd.map((k) => `flow=${encodeURIComponent(k)}`), 'operator=a/b', 'event=default/none'].join('&');
    const rows = (await (await fetch(`${ts.server.url}${OVERVIEW}/rows?${query}`)).json()) as OverviewRows;
    expect(rows.flows.map((f) => f.name)).toEqual([flowName(3)]);
    expect(rows.gone.flows).toEqual(odd.slice(0, 3));
    expect(rows.gone).toMatchObject({ operators: ['a/b'], events: ['default/none'] });
  });
});
