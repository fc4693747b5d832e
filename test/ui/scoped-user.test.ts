import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT, type CliProcess } from '../helpers/cli.js';
import type { Kubectl } from '../helpers/kubectl.js';
import { startSeededUp } from '../helpers/seeded-up.js';

// A ServiceAccount that may read only the `default` namespace signs in to the web view of a real
// `flowops up` (its API server with RBAC verifies the token) and sees what is there, listed
// namespace by namespace, without being told that what it could not read is "all ready".

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/scoped-user.test.ts: ${skip}`);
const SHOTS = join(ROOT, 'test-results', 'ui');
const VIEWER = 'system:serviceaccount:default:viewer';

let dir: string;
let up: CliProcess;
let url: string;
let kubectl: Kubectl;
let browser: Browser;
let token: string;

describe.skipIf(skip !== undefined)('a namespace-scoped ServiceAccount on `flowops up`', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'flowops-ui-scoped-'));
    ({ up, url, kubectl } = await startSeededUp(dir));
    await kubectl.ok(['create', 'serviceaccount', 'viewer', '-n', 'default']);
    await kubectl.ok([
      'create',
      'role',
      'viewer',
      '-n',
      'default',
      '--verb=get,list,watch',
      '--resource=flows.flowops.io,flowsources.flowops.io,events,databases.example.com',
    ]);
    await kubectl.ok([
      'create',
      'rolebinding',
      'viewer',
      '-n',
      'default',
      '--role=viewer',
      '--serviceaccount=default:viewer',
    ]);
    token = (await kubectl.ok(['create', 'token', 'viewer', '-n', 'default'])).trim();
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (up && up.child.exitCode === null) {
      up.child.kill('SIGTERM');
      await up.exited;
    }
  });

  it('a page asked for without a token, or with one the server refuses, is a sign-in page, not a bare text', async () => {
    const none = await fetch(`${url}/ui/`);
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await none.text()).toContain('Sign in to FlowOps');
    const bad = await fetch(`${url}/ui/?token=${encodeURIComponent('<script>x</script>')}`);
    expect(bad.status).toBe(401);
    const html = await bad.text();
    expect(html).toContain('This token was not accepted');
    expect(html).not.toContain('<script>x</script>');
    // The page's API still answers JSON, which the page turns into its own sign-in form.
    const api = await fetch(`${url}/ui/api/overview`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { signIn?: boolean }).signIn).toBe(true);
  });

  it('its token signs in, leaves the address bar, and the overview lists the default namespace', async () => {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
    ).newPage();
    await page.goto(`${url}/ui/?token=${token}`);
    expect(page.url()).toBe(`${url}/ui/`);
    await page.locator('[data-signed-in-as]').waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-signed-in-as]').innerText()).toBe(VIEWER);
    await page.locator('tr[data-flow="database-operator"]').waitFor({ timeout: 10_000 });
    await page.locator('tr[data-source="flows"]').waitFor();
    expect(await page.locator('[data-scoped]').first().innerText()).toMatch(/only in namespace default/);
    // Operators are cluster-scoped and not granted: said, and "all ready" is not claimed over them.
    await page.getByRole('alert').filter({ hasText: 'operators.dcontroller.io is forbidden' }).waitFor();
    const summary = await page.locator('[data-summary]').innerText();
    expect(summary).not.toContain('all ready');
    expect(summary).toContain('1 kind could not be read');
    expect(await page.locator('[data-unreadable]').innerText()).toContain('Operators could not be read');
    // Its Events, listed in default too.
    await page
      .locator('section', { has: page.locator('#recent-h') })
      .locator('tr')
      .first()
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'scoped-user-overview.png'), fullPage: true });
    // The Flow page reads the watched objects in default as well.
    await page.locator('tr[data-flow="database-operator"] a[data-row]').click();
    await page.locator('tr[data-object="my-postgres"]').waitFor({ timeout: 10_000 });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/ui/`);
    await page.getByRole('heading', { name: 'Sign in to FlowOps' }).waitFor();
    expect((await fetch(`${url}/ui/api/overview`)).status).toBe(401);
  });

  it("signs in from the sign-in page's form, on a phone in the dark theme", async () => {
    const page = await (
      await browser.newContext({
        viewport: { width: 390, height: 844 },
        colorScheme: 'dark',
        isMobile: true,
        hasTouch: true,
      })
    ).newPage();
    await page.goto(`${url}/ui/flows/default/database-operator`);
    await page.getByLabel('Bearer token').fill(token);
    await page.screenshot({ path: join(SHOTS, 'scoped-user-sign-in-phone-dark.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/ui/`);
    await page.locator('[data-signed-in-as]').waitFor({ timeout: 10_000 });
    await page.locator('tr[data-flow="database-operator"]').waitFor({ timeout: 10_000 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, 'scoped-user-overview-phone-dark.png'), fullPage: true });
  });
});
