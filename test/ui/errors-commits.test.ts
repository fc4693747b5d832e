import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { gitAsync } from '../helpers/git-server.js';
import { ROOT, runFlowops, type CliProcess } from '../helpers/cli.js';
import type { Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { OPERATOR } from '../fixtures/seed-operator.js';
import { startSeededUp } from '../helpers/seeded-up.js';

// Errors at the file's own line, commits once with subject and author, a rejected commit on the Flow
// it touched, a pinned source visible wherever it is shown: a real `flowops up`, pushes to its Git
// repository, the CLI, the Events and the web view in Chromium on a desktop and a 390 × 844 phone.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/errors-commits.test.ts: ${skip}`);

const SHOTS = join(ROOT, 'test-results', 'ui');
const FLOW_FILE = 'database-operator/flow.yaml';
// status keeps unknown fields, so the type check (at commit and at admission) lets this through and
// it fails only when it runs; an unknown spec field would be refused before (spec.version is not in the CRD).
const REQUIRED = '{{ required "status.version is required" .Resource.status.version }}';

let dir: string;
let up: CliProcess;
let url: string;
let kubectl: Kubectl;
let browser: Browser;
let page: Page;
let work: string;

const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** Commits a change of `file` in the clone and pushes it; returns the new commit. */
async function push(
  file: string,
  change: (text: string) => string,
  message: string,
  author = 'Ada Lovelace',
): Promise<string> {
  writeFileSync(join(work, file), change(readFileSync(join(work, file), 'utf8')));
  await gitAsync(work, 'commit', '-qa', `--author=${author} <ada@example.com>`, '-m', message);
  await gitAsync(work, 'push', '-q', 'origin', 'HEAD:main');
  return gitAsync(work, 'rev-parse', 'HEAD');
}

/** The page scrolls sideways when its document is wider than the viewport. */
const sideways = (p: Page): Promise<number> =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.skipIf(skip !== undefined)('errors at file lines, commits, rejected versions and pins in the web view', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'flowops-ui-errors-'));
    ({ up, url, kubectl } = await startSeededUp(dir));
    const cloneUrl = (/Git repository \(FlowSource default\/flows\): (\S+)/.exec(up.stdout()) ?? [])[1]!;
    work = join(dir, 'work');
    await gitAsync(dir, 'clone', '-q', cloneUrl, work);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const link = (/Web view: (\S+)/.exec(up.stdout()) ?? [])[1]!;
    await page.goto(link);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (up && up.child.exitCode === null) {
      up.child.kill('SIGTERM');
      await up.exited;
    }
  });

  it("a failing template is reported at flow.yaml's line and column in the Ready condition, the Events and `flowops events`", async () => {
    const text = readFileSync(join(work, FLOW_FILE), 'utf8').replace(
      'image: {{ .Resource.spec.engine }}:latest',
      `image: {{ .Resource.spec.engine }}:${REQUIRED}`,
    );
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(REQUIRED)) + 1;
    const column = (lines[line - 1] ?? '').indexOf('required "') + 1;
    await push(FLOW_FILE, () => text, 'require status.version');
    const at = `${FLOW_FILE}:${line}:${column}`;
    await waitFor(
      async () =>
        (
          await kubectl.ok([
            'get',
            'database',
            'my-postgres',
            '-o',
            'jsonpath={.status.conditions[?(@.type=="Ready")].message}',
          ])
        ).includes(at),
      { what: `Ready message naming ${at}`, timeoutMs: 30_000 },
    );
    expect(
      await kubectl.ok([
        'get',
        'database',
        'my-postgres',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].message}',
      ]),
    ).toContain(`template "create-statefulset.manifests": status.version is required (${at})`);
    const events = runFlowops(['events', 'database/my-postgres', '--kubeconfig', join(dir, 'kubeconfig')]);
    await events.exited;
    expect(events.stdout()).toContain(`status.version is required (${at})`);
    // The line inside the manifests block is a much smaller number, and is never printed as a bare position.
    expect(events.stdout()).not.toMatch(/status\.version is required \(line \d+, column \d+\)/);
  }, 60_000);

  it('the Flow page links that position to the line, marks it and shows the whole file', async () => {
    await page.goto(`${url}/ui/flows/default/database-operator`);
    const link = page.locator('a[data-line-link^="#L"]').first();
    await link.waitFor({ timeout: 30_000 });
    const href = (await link.getAttribute('href'))!;
    const n = Number(href.slice(2));
    expect(n).toBeGreaterThan(30);
    await link.click();
    const line = page.locator(`pre[data-file] #L${n}`);
    await page.waitForFunction((id) => document.getElementById(id)?.classList.contains('picked'), `L${n}`);
    expect(await line.innerText()).toContain('status.version is required');
    expect(await line.getAttribute('data-error-line')).toBe('');
    // The whole file, unclipped: as many numbered lines as the file has, and no inner scroll.
    const file = page.locator('pre[data-file]');
    expect(Number(await file.getAttribute('data-lines'))).toBe(
      readFileSync(join(work, FLOW_FILE), 'utf8').replace(/\n$/, '').split('\n').length,
    );
    expect(await file.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await shot(page, 'flow-error-line');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await shot(page, 'flow-error-line-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });

  it("a rejected commit shows on the Flow it touched, links to its error and to the rejected file's line", async () => {
    const fixed = await push(FLOW_FILE, (t) => t.replace(`:${REQUIRED}`, ':latest'), 'drop the version requirement');
    await waitFor(
      async () =>
        (await kubectl.ok(['get', 'flowsource', 'flows', '-o', 'jsonpath={.status.lastAppliedRevision}'])).endsWith(
          fixed,
        ),
      { what: 'fixed commit applied', timeoutMs: 20_000 },
    );
    const broken = await push(
      FLOW_FILE,
      (t) => t.replace('type: kubectl', 'type: kubectll'),
      'a typo <img src=x onerror="window.pwned=1">',
    );
    await page.goto(`${url}/ui/flows/default/database-operator`);
    const notice = page.locator(`[data-rejected="${broken}"]`);
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.innerText()).toContain('A newer version was rejected');
    // The subject is text, not markup.
    expect(await notice.innerText()).toContain('<img src=x onerror="window.pwned=1">');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await shot(page, 'flow-rejected');
    // Its error's file:line opens the rejected version of the file at that line.
    const toLine = notice.locator('a[data-line-link]').first();
    const href = (await toLine.getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`\\?commit=${broken}#L\\d+$`));
    await toLine.click();
    await page.locator('#definition-h', { hasText: '(rejected)' }).waitFor();
    const n = Number(href.split('#L')[1]);
    await page.waitForFunction((id) => document.getElementById(id)?.classList.contains('picked'), `L${n}`);
    expect(await page.locator(`#L${n}`).innerText()).toContain('kubectll');
    await shot(page, 'flow-rejected-file');
    // And the notice's commit goes to that commit on the source page, whose Ready error links back to the Flow.
    await page.locator('a[data-rejected-commit]').click();
    await page.waitForURL(`${url}/ui/sources/default/flows#${broken}`);
    const back = page.locator('dl.facts a[data-line-link]').first();
    await back.waitFor({ timeout: 10_000 });
    expect(await back.getAttribute('href')).toMatch(
      new RegExp(`^/ui/flows/default/database-operator\\?commit=${broken}#L\\d+$`),
    );
  }, 60_000);

  it('the source lists each commit once, with its subject and author, its syncs under it, hashes as links', async () => {
    await page.goto(`${url}/ui/sources/default/flows`);
    await page.locator('tr[data-commit]').first().waitFor();
    const commits = await page
      .locator('tr[data-commit]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-commit')));
    expect(new Set(commits).size).toBe(commits.length);
    const fixedRow = page.locator('tr[data-commit]', { hasText: 'drop the version requirement' });
    expect(await fixedRow.innerText()).toContain('Ada Lovelace');
    const sha = (await fixedRow.getAttribute('data-commit'))!;
    expect(await fixedRow.locator('a[data-commit-hash]').getAttribute('href')).toBe(
      `/ui/sources/default/flows/commits/${sha}`,
    );
    await shot(page, 'source-commits');
    // Its page: the diff against its parent, and what applying it would change live (it is live: nothing).
    await fixedRow.locator('a[data-commit-hash]').click();
    await page.waitForURL(`${url}/ui/sources/default/flows/commits/${sha}`);
    const fileDiff = page.locator(`[data-file-diff="${FLOW_FILE}"]`);
    await fileDiff.waitFor({ timeout: 15_000 });
    expect(await fileDiff.innerText()).toContain(`-                    image: {{ .Resource.spec.engine }}:${REQUIRED}`);
    expect(await fileDiff.innerText()).toContain('+                    image: {{ .Resource.spec.engine }}:latest');
    expect(await page.locator('[data-against-live] [data-preview-summary]').innerText()).toBe('Nothing would change.');
    expect(await page.locator('[data-subject]').innerText()).toBe('drop the version requirement');
    await shot(page, 'commit-page');
    await page.goBack();
  });

  it('a commit subject of 10,000 characters with HTML in it stays text, cut, and the page does not widen', async () => {
    const long = `<b id="injected">bold</b> ${'x'.repeat(10_000)}`;
    await push(FLOW_FILE, (t) => t.replace('type: kubectll', 'type: kubectl'), 'fix the typo');
    const sha = await push('samples/my-postgres.yaml', (t) => t.replace(/replicas: \d+/, 'replicas: 2'), long);
    await waitFor(
      async () =>
        (await kubectl.ok(['get', 'flowsource', 'flows', '-o', 'jsonpath={.status.lastAppliedRevision}'])).endsWith(
          sha,
        ),
      { what: 'the long commit applied', timeoutMs: 20_000 },
    );
    const row = page.locator(`tr[data-commit="${sha}"]`);
    await row.waitFor({ timeout: 20_000 });
    const subject = await row.locator('[data-subject]').innerText();
    expect(subject.startsWith('<b id="injected">bold</b> xxx')).toBe(true);
    expect(subject.length).toBeLessThanOrEqual(200);
    expect(await page.locator('#injected').count()).toBe(0);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
  });

  it('keys: g does nothing while a dialog is open, ? lists every key', async () => {
    await page.goto(`${url}/ui/sources/default/flows`);
    const seed = (await page.locator('tr[data-commit][data-outcome="Applied"]').last().getAttribute('data-commit'))!;
    await page.getByRole('button', { name: `Pin to commit ${seed.slice(0, 8)}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.keyboard.press('g');
    expect(page.url()).toBe(`${url}/ui/sources/default/flows`);
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard' });
    await help.waitFor();
    expect(await help.innerText()).toContain('go to the overview');
    await shot(page, 'keys-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('a pinned source is said on its page, the overview, the Flow page and an object page', async () => {
    const seed = (await page.locator('tr[data-commit][data-outcome="Applied"]').last().getAttribute('data-commit'))!;
    await page.getByRole('button', { name: `Pin to commit ${seed.slice(0, 8)}` }).click();
    // Before confirming, the dialog shows the server's dry run of the pin: my-postgres back to 3 replicas.
    const summary = page.getByRole('dialog').locator('[data-preview-summary]');
    await summary.waitFor({ timeout: 15_000 });
    expect(await summary.innerText()).toMatch(/^0 created, [1-9]\d* changed, 0 pruned\.$/);
    const database = page
      .getByRole('dialog')
      .locator('[data-preview-change="changed"]', { hasText: 'Database default/my-postgres' });
    expect(await database.innerText()).toMatch(/^-\s+replicas: 2$/m);
    expect(await database.innerText()).toMatch(/^\+\s+replicas: 3$/m);
    await shot(page, 'source-pin-preview');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Pin to ${seed.slice(0, 8)}` })
      .click();
    await page.locator('[data-pinned-notice]').waitFor({ timeout: 15_000 });
    // Pinning syncs the commit again: still one row for it, now with two syncs.
    await page.locator(`tr[data-commit="${seed}"] .live`).waitFor({ timeout: 15_000 });
    expect(await page.locator(`tr[data-commit="${seed}"]`).count()).toBe(1);
    await page.goto(`${url}/ui/`);
    await page.locator('tr[data-source="flows"] [data-pinned]').waitFor();
    await page.goto(`${url}/ui/flows/default/database-operator`);
    await page.locator('dl.facts [data-pinned]').waitFor();
    await page.goto(`${url}/ui/objects/example.com%2Fv1/Database/default/my-postgres`);
    await page.locator('[data-pinned]').first().waitFor({ timeout: 10_000 });
    await shot(page, 'object-pinned');
  });

  it('the unpin dialog shows what following the branch again would change, as of the last fetch', async () => {
    await page.goto(`${url}/ui/sources/default/flows`);
    await page.getByRole('button', { name: 'Unpin' }).click();
    const dialog = page.getByRole('dialog');
    const database = dialog.locator('[data-preview-change="changed"]', { hasText: 'Database default/my-postgres' });
    await database.waitFor({ timeout: 15_000 });
    expect(await database.innerText()).toMatch(/^-\s+replicas: 3$/m);
    expect(await database.innerText()).toMatch(/^\+\s+replicas: 2$/m);
    await shot(page, 'source-unpin-preview');
    await dialog.getByRole('button', { name: 'Unpin' }).click();
    await page.locator('dd', { hasText: 'branch main' }).waitFor({ timeout: 15_000 });
  });

  it('on a 390 px phone the source page does not scroll sideways and its Pin buttons are on screen', async () => {
    const phone = await browser.newPage({
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto((/Web view: (\S+)/.exec(up.stdout()) ?? [])[1]!);
    for (const path of [
      'sources/default/flows',
      '',
      'flows/default/database-operator',
      'objects/example.com%2Fv1/Database/default/my-postgres',
    ]) {
      await phone.goto(`${url}/ui/${path}`);
      await phone.locator('main h1').waitFor();
      await phone.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
      expect(await sideways(phone), `/ui/${path} is wider than the phone`).toBeLessThanOrEqual(0);
    }
    await phone.goto(`${url}/ui/sources/default/flows`);
    const pin = phone.getByRole('button', { name: /^Pin to commit/ }).first();
    await pin.waitFor();
    const box = (await pin.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // A URL wraps at the card's width, not a character per line; the key hints are not shown on touch.
    const urlBox = (await phone.locator('dl.facts code', { hasText: '/git/flows.git' }).boundingBox())!;
    expect(urlBox.width).toBeGreaterThan(200);
    expect(await phone.locator('footer.keys').isVisible()).toBe(false);
    await shot(phone, 'source-phone-dark');
    await phone.close();
  });

  it('a Flow of 123 objects lists the not-ready ones first, a page at a time, with a search (/) and a not-ready filter', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'items.test.example.com' },
      spec: {
        group: 'test.example.com',
        scope: 'Namespaced',
        names: { plural: 'items', singular: 'item', kind: 'Item' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(crd));
    await kubectl.ok(['wait', '--for=condition=Established', 'crd/items.test.example.com']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      [
        'apiVersion: flowops.io/v1',
        'kind: Flow',
        'metadata: { name: item-keeper, namespace: default }',
        'spec:',
        '  watch: { apiVersion: test.example.com/v1, kind: Item }',
        '  reconcile:',
        '    steps:',
        '      - name: keep',
        '        type: kubectl',
        '        action: apply',
        '        manifests: |',
        '          apiVersion: v1',
        '          kind: ConfigMap',
        '          metadata: { name: "item-{{ .Resource.metadata.name }}" }',
        '          data: { value: "{{ required "spec.value is required" .Resource.spec.value }}" }',
        '',
      ].join('\n'),
    );
    const items = Array.from({ length: 123 }, (_, i) => ({
      apiVersion: 'test.example.com/v1',
      kind: 'Item',
      metadata: { name: `item-${String(i).padStart(3, '0')}`, namespace: 'default' },
      spec: i % 50 === 7 ? {} : { value: `v${i}` },
    }));
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    await page.goto(`${url}/ui/flows/default/item-keeper`);
    // 3 of them lack spec.value: item-007, item-057, item-107.
    await page.locator('[data-count]', { hasText: '123 objects' }).waitFor({ timeout: 30_000 });
    await page.locator('label.check', { hasText: 'Not ready only (3)' }).waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelectorAll('tr[data-ready-row="True"]').length === 97, undefined, {
      timeout: 60_000,
    });
    const rows = page.locator('tr[data-object]');
    expect(await rows.count()).toBe(100);
    expect(await rows.evaluateAll((r) => r.slice(0, 3).map((x) => x.getAttribute('data-object')))).toEqual([
      'item-007',
      'item-057',
      'item-107',
    ]);
    expect(await page.locator('tr[data-object="item-007"]').innerText()).toContain('spec.value is required');
    await page.getByRole('button', { name: 'Show 23 more' }).click();
    expect(await rows.count()).toBe(123);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-search'))).toBe(true);
    await page.keyboard.type('item-12');
    await page.locator('[data-count]', { hasText: '3 of 123 objects' }).waitFor();
    await page.locator('input[data-search]').fill('');
    await page.getByLabel('Not ready only (3)').check();
    expect(await rows.count()).toBe(3);
    await shot(page, 'flow-many-objects');
  }, 120_000);

  it('an Operator applied from Git names its source and commit on its page', async () => {
    writeFileSync(join(work, 'operator.yaml'), OPERATOR);
    await gitAsync(work, 'add', 'operator.yaml');
    const sha = await push('operator.yaml', (t) => t, 'an operator from Git');
    await page.goto(`${url}/ui/operators/pod-container-num-annotator`);
    const from = page.locator('dl.facts [data-commit-link]');
    await from.waitFor({ timeout: 20_000 });
    expect(await from.getAttribute('data-commit-link')).toBe(sha);
    expect(await page.locator('dl.facts').innerText()).toContain('FlowSource default/flows');
    expect(await page.locator('dl.facts').innerText()).toContain('operator.yaml');
  });

  it('a Flow file over 256 KB is not shown whole: the page says so and shows the applied spec', async () => {
    mkdirSync(join(work, 'big'), { recursive: true });
    const filler = Array.from({ length: 4000 }, (_, i) => `# ${i} ${'<b>'.repeat(20)}`).join('\n');
    const flow = [
      filler,
      'apiVersion: flowops.io/v1',
      'kind: Flow',
      'metadata: { name: big-flow }',
      'spec:',
      '  watch: { apiVersion: v1, kind: ConfigMap, labelSelector: { matchLabels: { app: nothing-has-this } } }',
      '  reconcile:',
      '    steps:',
      '      - name: keep',
      '        type: kubectl',
      '        action: apply',
      '        manifests: |',
      '          apiVersion: v1',
      '          kind: ConfigMap',
      '          metadata: { name: "kept-{{ .Resource.metadata.name }}" }',
      '',
    ].join('\n');
    expect(flow.length).toBeGreaterThan(256 * 1024);
    writeFileSync(join(work, 'big', 'flow.yaml'), flow);
    await gitAsync(work, 'add', 'big/flow.yaml');
    await push('big/flow.yaml', (t) => t, 'a big Flow');
    await page.goto(`${url}/ui/flows/default/big-flow`);
    const status = async (): Promise<string> =>
      kubectl.ok([
        'get',
        'flowsource',
        'flows',
        '-o',
        'jsonpath={.status.history[0].outcome} {.status.history[0].message}',
      ]);
    await waitFor(async () => /^Applied/.test(await status()), {
      what: 'the big Flow applied',
      timeoutMs: 20_000,
    }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${await status()}`);
    });
    await page.locator('[data-file-not-shown]').waitFor({ timeout: 20_000 });
    expect(await page.locator('pre.yaml').innerText()).toContain('big-flow');
    expect(await page.locator('b').count()).toBe(0);
  });

  it('a commit with a type error shows on the Flow page: the field, the suggestion, a link to its line', async () => {
    const typo = await push(
      FLOW_FILE,
      (t) =>
        t.replace('type: kubectll', 'type: kubectl').replace('.Resource.spec.replicas }}', '.Resource.spec.replica }}'),
      'replica, one letter short',
    );
    const lines = readFileSync(join(work, FLOW_FILE), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('spec.replica }}')) + 1;
    expect(line).toBeGreaterThan(0);
    await page.goto(`${url}/ui/flows/default/database-operator`);
    const notice = page.locator(`[data-rejected="${typo}"]`);
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.innerText()).toContain('unknown field "spec.replica" in Database; did you mean "replicas"?');
    expect(await notice.locator('a[data-line-link]').first().getAttribute('href')).toMatch(
      new RegExp(`\\?commit=${typo}#L${line}$`),
    );
    await shot(page, 'flow-type-error');
  });
});
