import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/api/run-history.js';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT, runFlowops, type CliProcess } from '../helpers/cli.js';
import type { Kubectl } from '../helpers/kubectl.js';
import { startSeededUp } from '../helpers/seeded-up.js';
import { waitFor } from '../helpers/wait.js';

// Runs say why they ran: a real `flowops up` with the seed walkthrough's my-postgres. Deleting
// one of its children makes a run that puts it back (a SelfHealed Event, a run triggered by
// child-deleted); `flowops reconcile` makes a manual one. The object page shows both, with the
// run's revision short and linked to its commit page.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/run-triggers.test.ts: ${skip}`);

const SHOTS = join(ROOT, 'test-results', 'ui');
let dir: string;
let up: CliProcess;
let url: string;
let kubectl: Kubectl;
let browser: Browser;
let page: Page;

const runs = async (): Promise<Run[]> => {
  const out = await kubectl.ok(['get', 'runhistories', 'database-my-postgres', '-o', 'jsonpath={.status.runs}']);
  return out ? (JSON.parse(out) as Run[]) : [];
};

describe.skipIf(skip !== undefined)('runs tell why they ran', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'flowops-ui-triggers-'));
    ({ up, url, kubectl } = await startSeededUp(dir));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await page.goto((/Web view: (\S+)/.exec(up.stdout()) ?? [])[1] ?? '');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (up && up.child.exitCode === null) {
      up.child.kill('SIGTERM');
      await up.exited;
    }
  });

  it('a deleted child is put back: an Event says so, and the run records child-deleted', async () => {
    const jsonpath = 'jsonpath={.metadata.annotations.flowops\\.io/inventory}';
    const inventory = JSON.parse(await kubectl.ok(['get', 'database', 'my-postgres', '-o', jsonpath])) as Array<{
      kind: string;
      name: string;
      namespace?: string;
    }>;
    const child = inventory.find((e) => e.kind === 'Service') ?? inventory[0];
    if (!child) throw new Error('my-postgres has no children');
    await kubectl.ok(['delete', child.kind.toLowerCase(), child.name, '-n', child.namespace ?? 'default']);
    const event = await waitFor(
      async () => {
        const selector = ['--field-selector', 'reason=SelfHealed'];
        const out = await kubectl.ok(['get', 'events', ...selector, '-o', 'jsonpath={.items[*].message}']);
        return out.includes(`${child.kind} ${child.name}`) ? out : undefined;
      },
      { what: 'a SelfHealed Event', timeoutMs: 30_000 },
    );
    expect(event).toContain('put back');
    await kubectl.ok(['get', child.kind.toLowerCase(), child.name, '-n', child.namespace ?? 'default']);
    const run = await waitFor(async () => (await runs()).find((r) => r.triggers?.includes('child-deleted')), {
      what: 'a run triggered by child-deleted',
      timeoutMs: 30_000,
    });
    expect(run.outcome).toBe('Succeeded');

    await page.goto(`${url}/ui/objects/example.com%2Fv1/Database/default/my-postgres`);
    await page.locator('[data-triggers~="child-deleted"]').first().waitFor({ timeout: 20_000 });
    expect(await page.getByRole('table', { name: 'Events' }).innerText()).toContain('SelfHealed');
    const link = page.locator('[data-revision-link]').first();
    await link.waitFor();
    const commit = (await link.getAttribute('data-revision-link')) ?? '';
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect((await link.innerText()).trim()).toBe(commit.slice(0, 10));
    expect(await link.getAttribute('href')).toBe(`/ui/sources/default/flows/commits/${commit}`);
    await page.screenshot({ path: join(SHOTS, 'run-triggers.png'), fullPage: true });
  }, 90_000);

  it('draws the children as a graph coloured by health, each node linked to its page, on a phone too', async () => {
    await page.goto(`${url}/ui/objects/example.com%2Fv1/Database/default/my-postgres`);
    const graph = page.locator('[data-child-graph]');
    await graph.waitFor({ timeout: 20_000 });
    const nodes = page.locator('[data-graph-node]');
    const listed = await page.locator('ul.tree [data-child]').count();
    expect(await nodes.count()).toBe(listed + 1);
    const sts = page.locator('[data-graph-node^="StatefulSet/"]');
    await sts.waitFor();
    expect(await sts.getAttribute('data-health')).toMatch(/^(Current|InProgress)$/);
    expect(await page.locator('svg.child-graph a[href*="StatefulSet"]').count()).toBe(1);
    // The bar's colour is the health's: the light theme's --ok (#1a7f37) for a healthy child.
    const healthy = page.locator('[data-graph-node][data-health="Current"] .bar').first();
    expect(await healthy.evaluate((el) => getComputedStyle(el).fill)).toBe('rgb(26, 127, 55)');
    // Signed in as the desktop page is (the admin's cookie).
    const viewport = { width: 390, height: 844 };
    const phoneContext = await browser.newContext({ viewport, hasTouch: true, isMobile: true });
    await phoneContext.addCookies(await page.context().cookies());
    const phone = await phoneContext.newPage();
    await phone.goto(`${url}/ui/objects/example.com%2Fv1/Database/default/my-postgres`);
    await phone.locator('[data-child-graph]').waitFor({ timeout: 20_000 });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Every column of the earlier runs is on screen (a card per run), the revision link too.
    const revision = phone.locator('[data-earlier-runs] [data-revision-link]').first();
    const box = await revision.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: join(SHOTS, 'child-graph-phone.png'), fullPage: true });
    await phoneContext.close();
    await page.screenshot({ path: join(SHOTS, 'child-graph.png'), fullPage: true });
  }, 60_000);

  it('flowops reconcile makes a manual run', async () => {
    const before = (await runs()).length;
    const kubeconfig = join(dir, 'kubeconfig');
    const r = runFlowops(['reconcile', 'flow', 'database-operator', '-n', 'default', '--kubeconfig', kubeconfig]);
    expect((await r.exited).code).toBe(0);
    await waitFor(async () => ((await runs())[0]?.triggers?.includes('manual') ? true : undefined), {
      what: `a manual run (runs before: ${before})`,
      timeoutMs: 30_000,
    });
  }, 60_000);
});
