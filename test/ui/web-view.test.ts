import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { OPERATOR } from '../fixtures/seed-operator.js';
import { gitAsync } from '../helpers/git-server.js';
import { ROOT, runFlowops, serverUrlOf, type CliProcess } from '../helpers/cli.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

// The web view in a real browser against a real `flowops up`: the seed operators synced from the
// built-in Git repository, the simulator making the StatefulSet's pods ready. Every wait is on a
// condition with a deadline (Playwright's waitFor or test/helpers/wait.ts), never a sleep.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/web-view.test.ts: ${skip}`);

const SHOTS = join(ROOT, 'test-results', 'ui');
// Slow enough that a scale-up or a recreated StatefulSet stays InProgress for seconds, so the test
// sees the not-ready state on the open page before the simulator makes it ready again.
const POD_READY_DELAY_MS = '1500';

let dir: string;
let up: CliProcess;
let url: string;
let kubectl: Kubectl;
let browser: Browser;
let page: Page;

const startUp = (listen: string): CliProcess =>
  runFlowops([
    'up',
    '--listen',
    listen,
    '--data',
    join(dir, 'data'),
    '--kubeconfig',
    join(dir, 'kubeconfig'),
    '--pod-ready-delay',
    POD_READY_DELAY_MS,
  ]);

const stopUp = async (): Promise<void> => {
  up.child.kill('SIGTERM');
  await up.exited;
};

const adminToken = (): string => readFileSync(join(dir, 'data', 'pki', 'admin.token'), 'utf8');

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe.skipIf(skip !== undefined)('the web view at /ui/', () => {
  beforeAll(async () => {
    // `npm ci` builds ui/dist (prepare); a checkout that skipped it gets one here.
    if (!existsSync(join(ROOT, 'ui', 'dist', 'index.html'))) {
      const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
      if (built.status !== 0) throw new Error('could not build the web view');
    }
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'flowops-ui-'));
    up = startUp('127.0.0.1:0');
    url = await serverUrlOf(up);
    kubectl = kubectlFor(join(dir, 'kubeconfig'), mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
    await waitFor(
      async () => (await kubectl(['wait', '--for=condition=Ready', 'database/my-postgres', '--timeout=2s'])).code === 0,
      { what: 'my-postgres Ready', timeoutMs: 45_000 },
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (up && up.child.exitCode === null) await stopUp();
  });

  it('asks for the admin token, and the printed link carries it', async () => {
    expect((await fetch(`${url}/ui/`)).status).toBe(401);
    const link = (/Web view: (\S+)/.exec(up.stdout()) ?? [])[1]!;
    expect(link).toBe(`${url}/ui/?token=${adminToken()}`);
    // The link's token becomes a cookie and leaves the address bar.
    await page.goto(link);
    expect(page.url()).toBe(`${url}/ui/`);
  });

  it('the overview lists the flows FlowSource and the seed Flows, all ready, and updates live', async () => {
    await page.goto(`${url}/ui/`);
    await page.locator('tr[data-source="flows"] [data-ready="True"]').waitFor({ timeout: 15_000 });
    for (const flow of ['database-operator', 'webapp-operator', 'webhook-notifier', 'config-bundle']) {
      await page.locator(`tr[data-flow="${flow}"]`).waitFor({ timeout: 15_000 });
    }
    await page.locator('tr[data-flow="database-operator"] [data-ready="True"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('tr[data-flow="database-operator"]').innerText()).toContain('Database');
    expect(await page.locator('tr[data-source="flows"]').innerText()).toMatch(/branch main/);
    await page.locator('[data-connection="live"]').waitFor();
    // What changed recently: the reconcile's Event, linking to the object.
    await page
      .locator('section', { has: page.locator('#recent-h') })
      .getByRole('link', { name: 'Database default/my-postgres' })
      .first()
      .waitFor({ timeout: 10_000 });
    await shot('overview');
  });

  it('has a dark theme, chosen by the labelled toggle', async () => {
    const toggle = page.getByRole('button', { name: 'Switch to dark theme' });
    await toggle.click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(15, 19, 24)');
    await shot('overview-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });

  it('the source page shows the applied commit as live, with its objects', async () => {
    await page.locator('tr[data-source="flows"] a[data-row]').click();
    await page.waitForURL(`${url}/ui/sources/default/flows`);
    const live = page.locator('tr[data-outcome="Applied"]', { has: page.locator('.live') });
    await live.waitFor({ timeout: 10_000 });
    expect(await live.innerText()).toMatch(/applied, 0 pruned/);
    expect(await page.locator('main').innerText()).toContain('database-operator/flow.yaml');
    await shot('source');
    await page.goBack();
    await page.waitForURL(`${url}/ui/`);
    await page.locator('tr[data-flow="database-operator"]').waitFor();
  });

  it('the flow page shows the definition and its watched objects; keyboard j + Enter opens one', async () => {
    await page.locator('tr[data-flow="database-operator"] a[data-row]').click();
    await page.waitForURL(`${url}/ui/flows/default/database-operator`);
    await page.locator('tr[data-object="my-postgres"] [data-ready="True"]').waitFor({ timeout: 10_000 });
    // The file as committed, with the comments the applied object lost and its line numbers.
    const file = page.locator('pre[data-file]');
    expect(await file.innerText()).toContain('create-statefulset');
    expect(await page.locator('#definition-h').innerText()).toContain('database-operator/flow.yaml');
    await shot('flow');
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('default/my-postgres');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/objects\/example\.com%2Fv1\/Database\/default\/my-postgres$/);
  });

  it('the object page of my-postgres shows its StatefulSet child healthy, its Events and its commit', async () => {
    await page.locator('[data-child="StatefulSet/my-postgres"][data-health="Current"]').waitFor({ timeout: 10_000 });
    // Below what the Flow applied, what the StatefulSet's controller made: its ordinal Pods.
    for (const pod of ['my-postgres-0', 'my-postgres-1', 'my-postgres-2']) {
      await page
        .locator(`[data-child="StatefulSet/my-postgres"] [data-child="Pod/${pod}"][data-health="Current"]`)
        .waitFor({ timeout: 10_000 });
    }
    expect(await page.locator('main').innerText()).toContain('Watched by');
    const main = await page.locator('main').innerText();
    expect(main).toContain('Reconciled');
    expect(main).toContain('samples/my-postgres.yaml');
    expect(await page.locator('[data-commit-link]').getAttribute('data-commit-link')).toMatch(/^[0-9a-f]{40}$/);
    await shot('object');
  });

  it('shows a change on the open page without a reload: scaling the Database makes the child InProgress, then healthy', async () => {
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await kubectl.ok(['patch', 'database', 'my-postgres', '--type=merge', '-p', '{"spec":{"replicas":5}}']);
    const scaling = page.locator('[data-child="StatefulSet/my-postgres"][data-health="InProgress"]');
    await scaling.waitFor({ timeout: 5_000 });
    expect(await scaling.innerText()).toMatch(/\/5 replicas ready/);
    await shot('object-scaling');
    await page.locator('[data-child="StatefulSet/my-postgres"][data-health="Current"]').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('reconnects after the server restarts, and then shows a deleted child coming back', async () => {
    const port = new URL(url).port;
    await stopUp();
    await page.locator('[data-connection="reconnecting"]').waitFor({ timeout: 10_000 });
    up = startUp(`127.0.0.1:${port}`);
    await serverUrlOf(up);
    await page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
    await waitFor(
      async () => (await kubectl(['wait', '--for=condition=Ready', 'database/my-postgres', '--timeout=2s'])).code === 0,
      { what: 'my-postgres Ready again', timeoutMs: 30_000 },
    );
    await kubectl.ok(['delete', 'statefulset', 'my-postgres', '--wait=false']);
    await page
      .locator('[data-child="StatefulSet/my-postgres"]:is([data-health="InProgress"], [data-health="Missing"])')
      .waitFor({ timeout: 5_000 });
    await page.locator('[data-child="StatefulSet/my-postgres"][data-health="Current"]').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  }, 90_000);

  it("names the failing step on a broken object's page, and shows its last run", async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      [
        'apiVersion: flowops.io/v1',
        'kind: Flow',
        'metadata: { name: input-checker, namespace: default }',
        'spec:',
        '  watch: { apiVersion: v1, kind: ConfigMap, labelSelector: { matchLabels: { app: checked } } }',
        '  reconcile:',
        '    steps:',
        '      - name: check-input',
        '        type: script',
        '        errorHandling: { type: permanent }',
        '        script: |',
        '          echo "input is not valid" >&2',
        '          exit 3',
        '',
      ].join('\n'),
    );
    await kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: checked-input, namespace: default, labels: { app: checked } }\ndata: { a: "1" }\n',
    );
    await page.goto(`${url}/ui/objects/v1/ConfigMap/default/checked-input`);
    const failure = page.locator('[data-failure-step="check-input"]');
    // The box first shows the Ready condition's summary, then the run's own error once its record is read.
    await failure.getByText('step "check-input" failed').waitFor({ timeout: 20_000 });
    // The last run: its outcome, the step with its attempts, the error.
    const lastRun = page.locator('[data-last-run="Stalled"]');
    await lastRun.waitFor({ timeout: 20_000 });
    expect(await lastRun.innerText()).toContain('Flow default/input-checker');
    // With its duration and start, from the object's RunHistory, which is written a moment after
    // the run (batched): the page follows the stream until the record has this run too.
    await page
      .locator('[data-last-run="Stalled"]')
      .getByText(/Stalled in \d+(\.\d+)?m?s, /)
      .waitFor({ timeout: 20_000 });
    expect(await page.getByRole('table', { name: 'Last run' }).innerText()).toMatch(
      /check-input\s+failed\s+1\s+\d+(\.\d+)?m?s/,
    );
    await shot('object-failing');
  });

  it("draws a Δ-controller Operator's pipeline: sources → stages → target, with its Ready", async () => {
    await kubectl.ok(['apply', '-f', '-'], OPERATOR);
    await page.goto(`${url}/ui/`);
    await page.locator('tr[data-operator="pod-container-num-annotator"] a[data-row]').click();
    await page.waitForURL(`${url}/ui/operators/pod-container-num-annotator`);
    const controller = page.locator('[data-controller="pod-container-num-annotator"]');
    await controller.locator('[data-ready="True"]').waitFor({ timeout: 15_000 });
    await controller.locator('[data-node="source:Pod"]').waitFor();
    expect(await controller.locator('[data-node="target:Pod"]').innerText()).toContain('Patcher');
    expect(await controller.locator('.stages').innerText()).toContain('@project');
    await shot('operator');
  });

  it('answers the keys it lists: g goes to the overview, t switches the theme, back returns', async () => {
    const before = page.url();
    await page.keyboard.press('g');
    await page.waitForURL(`${url}/ui/`);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const start = await theme();
    await page.keyboard.press('t');
    await page.waitForFunction((t) => document.documentElement.dataset.theme !== t, start);
    await page.keyboard.press('t');
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, start);
    await page.goBack();
    await page.waitForURL(before);
  });

  it("never shows a Secret's values", async () => {
    await kubectl.ok(['create', 'secret', 'generic', 'db-password', '--from-literal=password=s3cr3t-value']);
    await page.goto(`${url}/ui/objects/v1/Secret/default/db-password`);
    await page.locator('h1', { hasText: 'Secret default/db-password' }).waitFor({ timeout: 10_000 });
    await page.locator('summary', { hasText: 'YAML' }).click();
    const html = await page.content();
    expect(html).toContain('password: (hidden)');
    expect(html).not.toContain('s3cr3t-value');
    expect(html).not.toContain(Buffer.from('s3cr3t-value').toString('base64'));
    const api = await (
      await fetch(`${url}/ui/api/object?apiVersion=v1&kind=Secret&namespace=default&name=db-password`, {
        headers: { authorization: `Bearer ${adminToken()}` },
      })
    ).text();
    expect(api).not.toContain(Buffer.from('s3cr3t-value').toString('base64'));
  });

  it('shows a pushed commit as live on the open source page, and a broken one as Rejected with its file:line', async () => {
    await page.goto(`${url}/ui/sources/default/flows`);
    await page.locator('tr[data-outcome="Applied"] .live').waitFor({ timeout: 10_000 });
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const cloneUrl = (/Git repository \(FlowSource default\/flows\): (\S+)/.exec(up.stdout()) ?? [])[1]!;
    const work = join(dir, 'work');
    await gitAsync(dir, 'clone', '-q', cloneUrl, work);
    const edit = async (file: string, change: (text: string) => string, message: string): Promise<string> => {
      writeFileSync(join(work, file), change(readFileSync(join(work, file), 'utf8')));
      await gitAsync(work, 'commit', '-qam', message);
      await gitAsync(work, 'push', '-q', 'origin', 'HEAD:main');
      return gitAsync(work, 'rev-parse', 'HEAD');
    };
    const good = await edit(
      'samples/my-postgres.yaml',
      (t) => t.replace(/replicas: \d+/, 'replicas: 2'),
      'two replicas',
    );
    await page.locator(`tr[data-commit="${good}"][data-outcome="Applied"] .live`).waitFor({ timeout: 10_000 });
    const broken = await edit(
      'database-operator/flow.yaml',
      (t) => t.replace('type: kubectl', 'type: kubectll'),
      'a typo',
    );
    const rejected = page.locator(`tr[data-commit="${broken}"][data-outcome="Rejected"]`);
    await rejected.waitFor({ timeout: 10_000 });
    expect(await rejected.innerText()).toContain('database-operator/flow.yaml:');
    // The good commit stays live: a rejected commit is not applied.
    await page.locator(`tr[data-commit="${good}"] .live`).waitFor();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await shot('source-after-push');
  });

  it('pins the source to an older commit behind a confirmation, unpins, suspends and resumes it', async () => {
    const dialog = page.getByRole('dialog');
    const confirmWith = async (button: string, confirmLabel: string | RegExp): Promise<void> => {
      await page.getByRole('button', { name: button }).click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: confirmLabel }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    const seed = (await page.locator('tr[data-outcome="Applied"]').last().getAttribute('data-commit'))!;
    const short = seed.slice(0, 8);
    await page.getByRole('button', { name: `Pin to commit ${short}` }).click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`Apply commit ${short} and stay on it`);
    await shot('source-confirm');
    await dialog.getByRole('button', { name: `Pin to ${short}` }).click();
    await page.locator('[data-action-outcome="ok"]', { hasText: `pinned to ${short}` }).waitFor();
    await page.locator(`tr[data-commit="${seed}"] .live`).waitFor({ timeout: 15_000 });
    await page.locator('dd', { hasText: `pinned ${short}` }).waitFor();
    const pinned = JSON.parse(
      (await kubectl.ok(['get', 'flowsource', 'flows', '-o', 'jsonpath={.spec.ref}'])) || '{}',
    ) as { commit?: string };
    expect(pinned.commit).toBe(seed);

    await confirmWith('Unpin', 'Unpin');
    await page.locator('dd', { hasText: 'branch main' }).waitFor({ timeout: 10_000 });

    // Escape cancels: nothing is sent.
    await page.getByRole('button', { name: 'Suspend' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await kubectl.ok(['get', 'flowsource', 'flows', '-o', 'jsonpath={.spec.suspend}'])).toBe('');

    await confirmWith('Suspend', 'Suspend');
    await page.locator('dd', { hasText: '(suspended)' }).waitFor({ timeout: 10_000 });
    await confirmWith('Resume', 'Resume');
    await page.getByRole('button', { name: 'Suspend' }).waitFor({ timeout: 10_000 });
    await confirmWith('Sync now', 'Sync now');
    await page.locator('[data-action-outcome="ok"]', { hasText: 'sync started' }).waitFor();
    await shot('source-actions');
  });
});
