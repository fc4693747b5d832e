import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { uiRoute, type UiRoute } from '../../src/ui-server/route.js';
import type { FlowObjectsUpdate } from '../../src/ui-server/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import {
  createItems,
  createManyFlow,
  ITEM_API_VERSION,
  itemName,
  itemRef,
  namespaceOf,
  readyStatus,
  WATCH_LABEL,
} from '../helpers/many-watched.js';
import { waitFor } from '../helpers/wait.js';

// The Flow page of a Flow watching 300 objects, in a real browser against the embedded API server
// and the web view (no controllers: the test changes the objects itself). Changes reach the open
// page as reads of the changed objects alone, never as the whole list again.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/flow-page-live.test.ts: ${skip}`);

const SHOTS = join(ROOT, 'test-results', 'ui');
const COUNT = 300;
const FLOW_API = '/ui/api/flows/default/many';

let ts: TestServer;
let kube: KubeClient;
let ui: UiRoute;
let browser: Browser;
let page: Page;
/** Every web view API answer the page read: its path and query, and its body's bytes. */
const reads: Array<{ url: string; bytes: number }> = [];

const readsSince = (from: number) => reads.slice(from).map((r) => r.url);
const fullReads = (from: number) => readsSince(from).filter((u) => u === FLOW_API || u.startsWith(`${FLOW_API}?`));
const count = (text: string) => page.locator('[data-count]', { hasText: text }).waitFor({ timeout: 20_000 });

describe.skipIf(skip !== undefined)('the Flow page of many watched objects', () => {
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
    await createManyFlow(kube);
    await createItems(kube, 0, COUNT);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.on('requestfinished', (req) => {
      const u = new URL(req.url());
      if (!u.pathname.startsWith('/ui/api/') || u.pathname === '/ui/api/stream') return;
      void req.sizes().then((s) => reads.push({ url: `${u.pathname}${u.search}`, bytes: s.responseBodySize }));
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await ts?.stop();
  });

  it('lists not-ready objects first, a hundred at a time, and a change reads only the changed object', async () => {
    await page.goto(`${ts.server.url}/ui/flows/default/many`);
    await count(`${COUNT} objects`);
    await page.locator('[data-connection="live"]').waitFor();
    const rows = page.locator('tr[data-object]');
    expect(await rows.count()).toBe(100);
    expect(await rows.first().getAttribute('data-object')).toBe(itemName(3));
    expect(await page.locator('tr[data-ready-row="False"]').count()).toBe(COUNT / 10);
    const full = reads.find((r) => r.url === FLOW_API);
    expect(full?.bytes).toBeGreaterThan(30_000);

    // HTML in a message is text on the page, never markup.
    const evil = '<img src=x onerror="window.__pwned=1"> broke';
    await kube.patch(itemRef(5), { status: readyStatus(false, evil) }, 'merge');
    await page.locator(`tr[data-object="${itemName(5)}"][data-ready-row="False"]`).waitFor({ timeout: 10_000 });
    expect(await page.locator(`tr[data-object="${itemName(5)}"]`).innerText()).toContain('<img src=x');
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => '__pwned' in window)).toBe(false);

    // The change above came through the feed's watch of Items, so its first listing (a change per
    // object, which the page answers by reading it all once more) is over: from here on, only changes.
    const from = reads.length;
    await kube.patch(itemRef(8), { status: readyStatus(false, 'item 8 broke') }, 'merge');
    await page.locator(`tr[data-object="${itemName(8)}"][data-ready-row="False"]`).waitFor({ timeout: 10_000 });
    await waitFor(() => readsSince(from).length > 0, { what: 'the update read recorded' });
    const update = reads.slice(from);
    const key = `key=${encodeURIComponent(`${namespaceOf(8)}/${itemName(8)}`)}`;
    // Only keyed reads of changed objects: a late second event of item 5 (a loaded machine) may share
    // the batch with item 8, but the list is never read again.
    expect(fullReads(from)).toEqual([]);
    for (const r of update) expect(r.url.startsWith(`${FLOW_API}/objects?key=`), r.url).toBe(true);
    expect(update.some((r) => r.url.split(/[?&]/).includes(key))).toBe(true);
    for (const r of update) expect(r.bytes).toBeLessThan(1_000 * r.url.split('key=').slice(1).length);
    await page.screenshot({ path: join(SHOTS, 'flow-page-live.png'), fullPage: false });
  }, 60_000);

  it('adds, drops and relabels rows from the change stream without reading the list again', async () => {
    const from = reads.length;
    await kube.delete(itemRef(0));
    await count(`${COUNT - 1} objects`);
    await kube.create({
      apiVersion: ITEM_API_VERSION,
      kind: 'Item',
      metadata: { name: itemName(COUNT), namespace: namespaceOf(COUNT), labels: WATCH_LABEL },
      status: readyStatus(false, 'new and not ready'),
    });
    await count(`${COUNT} objects`);
    // Out of the Flow's selector: no longer one of its objects.
    await kube.patch(itemRef(1), { metadata: { labels: { watched: 'no' } } }, 'merge');
    await count(`${COUNT - 1} objects`);
    expect(await page.locator(`tr[data-object="${itemName(1)}"]`).count()).toBe(0);
    expect(fullReads(from)).toEqual([]);
  }, 60_000);

  it('bounds an update read: at most 100 keys, and a key that names no watched object is gone', async () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `key=default/${itemName(i)}`).join('&');
    const tooMany = await fetch(`${ts.server.url}${FLOW_API}/objects?${keys(101)}`);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toContain('at most 100 key parameters');
    const odd = ['no-slash', `default/${'x'.repeat(10_000)}`, 'default/<b>x</b>', `${namespaceOf(3)}/${itemName(3)}`];
    const query = odd.map((k) => `key=${encodeURIComponent(k)}`).join('&');
    const res = await fetch(`${ts.server.url}${FLOW_API}/objects?${query}`);
    const update = (await res.json()) as FlowObjectsUpdate;
    expect(update.objects.map((o) => o.key.name)).toEqual([itemName(3)]);
    expect(update.gone.map((k) => k.name)).toEqual(['<b>x</b>']);
  });

  it('reads the head alone when the Flow status changes, and the whole page when its spec does', async () => {
    const from = reads.length;
    const flowRef = { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: 'many' };
    const broke = { status: readyStatus(false, 'the Flow itself broke') };
    await kube.patch(flowRef, broke, 'merge', { subresource: 'status' });
    await page.locator('dl.facts', { hasText: 'the Flow itself broke' }).waitFor({ timeout: 10_000 });
    await waitFor(() => readsSince(from).includes(`${FLOW_API}/head`), { what: 'the head read' });
    expect(fullReads(from)).toEqual([]);
    const steps = [{ name: 'noop', type: 'script', script: 'echo changed' }];
    await kube.patch(flowRef, { spec: { reconcile: { steps } } }, 'merge');
    await page.locator('pre.yaml', { hasText: 'echo changed' }).waitFor({ timeout: 10_000 });
    await waitFor(() => fullReads(from).length === 1, { what: 'the whole page read again, once' });
  }, 60_000);

  it('filters by failing and by namespace, and searches with /', async () => {
    const failure = { fingerprint: 'x', terminal: true, step: 'keep', reason: 'StepFailed' };
    await kube.patch(
      itemRef(13),
      {
        metadata: {
          annotations: {
            'flowops.io/failure': JSON.stringify(failure),
          },
        },
      },
      'merge',
    );
    await page.locator('label.check', { hasText: 'Failing only (1)' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Failing only (1)').check();
    const shown = await page.locator('tr[data-object]').evaluateAll((r) => r.map((x) => x.getAttribute('data-object')));
    expect(shown).toEqual([itemName(13)]);
    await page.getByLabel('Failing only (1)').uncheck();
    await page.getByLabel('Namespace').selectOption('team-a');
    // team-a holds every third item from item 1 on; item 1 left the selector.
    await count(`${COUNT / 3 - 1} of ${COUNT - 1} objects`);
    await page.getByLabel('Namespace').selectOption('');
    // Keys typed into a field are the field's: `/` is pressed from the page.
    await page.locator('h1').click();
    await page.keyboard.press('/');
    await page.keyboard.type(itemName(20));
    await count(`1 of ${COUNT - 1} objects`);
    await page.locator('input[data-search]').fill('');
  }, 60_000);

  it('a page opened before its Flow exists shows the Flow once it is made', async () => {
    await page.goto(`${ts.server.url}/ui/flows/default/later`);
    await page.locator('main', { hasText: 'not found' }).waitFor({ timeout: 20_000 });
    const watch = { apiVersion: ITEM_API_VERSION, kind: 'Item', labelSelector: { matchLabels: { none: 'yet' } } };
    await kube.create({
      apiVersion: 'flowops.io/v1',
      kind: 'Flow',
      metadata: { name: 'later', namespace: 'default' },
      spec: { watch, reconcile: { steps: [{ name: 'noop', type: 'script', script: 'true' }] } },
    });
    await page.locator('h1', { hasText: 'Flow default/later' }).waitFor({ timeout: 20_000 });
  }, 60_000);

  it('fits a 390 px phone without sideways scroll, in both themes', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const viewport = { width: 390, height: 844 };
      const phone = await browser.newPage({ viewport, colorScheme, hasTouch: true, isMobile: true });
      await phone.goto(`${ts.server.url}/ui/flows/default/many`);
      await phone.locator('[data-count]', { hasText: 'objects' }).waitFor({ timeout: 20_000 });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // No key hint on a touch screen.
      expect(await phone.locator('input[data-search]').getAttribute('placeholder')).toBe('Search');
      await phone.screenshot({ path: join(SHOTS, `flow-page-live-phone-${colorScheme}.png`) });
      await phone.close();
    }
  }, 60_000);
});
