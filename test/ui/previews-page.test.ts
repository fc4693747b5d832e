import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { storePreview, type StoredPreview } from '../../src/preview/preview-store.js';
import { uiRoute, type UiRoute } from '../../src/ui-server/route.js';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { applyRepoSource, samplePreview } from './preview-fixture.js';

// The previews pages in a real browser against the web view's backend on the embedded API server:
// the list follows what the previewer stores live, a request's page shows its summary with the
// diff folded, and the URL says which page it is (reload and back work).

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/previews-page.test.ts: ${skip}`);
const SHOTS = join(ROOT, 'test-results', 'ui');

let env: FlowOpsEnv;
let ui: UiRoute;
let browser: Browser;
let page: Page;
let source: KubeObject;

const preview = (pr: number, over: Partial<StoredPreview> = {}): StoredPreview =>
  samplePreview(pr, { sha: `${pr}`.padStart(40, 'b'), at: new Date().toISOString(), ...over });

describe.skipIf(skip !== undefined)('the pull-request previews pages', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env = await startFlowOps();
    ui = uiRoute({ kube: env.kube, log: pino({ level: 'silent' }) });
    env.ts.server.addRoute((req, res, url) => ui.handle(req, res, url));
    source = await applyRepoSource(env);
    await storePreview(env.kube, source, preview(7));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await env?.stop();
  });

  it('lists previews live, and a request’s page shows the summary with the diff folded', async () => {
    const base = env.ts.server.url;
    await page.goto(`${base}/ui/sources/default/repo`);
    await page.locator('a[data-previews-link]').click();
    expect(new URL(page.url()).pathname).toBe('/ui/sources/default/repo/previews');
    await page.locator('tr[data-pr="7"]').waitFor();
    // A new request previewed while the page is open shows without a reload.
    await storePreview(
      env.kube,
      source,
      preview(12, { state: 'failure', description: 'rejected: flows/web.yaml:3:1' }),
    );
    await page.locator('tr[data-pr="12"] td[data-state]').getByText('failure').waitFor({ timeout: 30_000 });
    await page.locator('tr[data-pr="7"] a').click();
    expect(new URL(page.url()).pathname).toBe('/ui/sources/default/repo/previews/7');
    const row = page.locator('table[data-summary] tbody tr');
    expect(await row.innerText()).toMatch(/changed\s+Flow default\/web\s+spec\.replicas\s+Deployment default\/a/);
    const diff = page.locator('details[data-diff]');
    expect(await diff.getAttribute('open')).toBeNull();
    expect(await diff.locator('pre.diff').isVisible()).toBe(false);
    await diff.locator('summary').click();
    expect(await diff.locator('pre.diff').innerText()).toContain('+  replicas: 3');
    await page.screenshot({ path: join(SHOTS, 'preview-page.png'), fullPage: true });
    // The URL is the state: a reload shows the same request, back the list.
    await page.reload();
    await page.locator('table[data-summary]').waitFor();
    await page.goBack();
    await page.locator('tr[data-pr="12"]').waitFor();
  });
});
