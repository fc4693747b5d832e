import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT, type CliProcess } from '../helpers/cli.js';
import type { Kubectl } from '../helpers/kubectl.js';
import { startSeededUp } from '../helpers/seeded-up.js';
import { waitFor } from '../helpers/wait.js';

// The Flow page's rollout section in a real browser against a real `flowops up`. No rollout engine
// runs here: the test writes the seed Flow's status.rollout through the status subresource as the
// engine does (docs/rollout.md), and the page must follow it live and send the controls.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/flow-rollout.test.ts: ${skip}`);
const SHOTS = join(ROOT, 'test-results', 'ui');

let up: CliProcess;
let url: string;
let kubectl: Kubectl;
let browser: Browser;
let page: Page;

const stage = (index: number, target: number, updated: number, ready: number, state: string) => ({
  index,
  target,
  updated,
  ready,
  state,
});

async function writeStatus(rollout: Record<string, unknown>, generations: unknown[]): Promise<void> {
  const patch = { status: { rollout: { failed: null, message: null, ...rollout }, generations } };
  const args = [
    'patch',
    'flow',
    'database-operator',
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify(patch),
  ];
  await kubectl.ok(args);
}

const annotation = async (key: string): Promise<string> =>
  kubectl.ok([
    'get',
    'flow',
    'database-operator',
    '-o',
    `jsonpath={.metadata.annotations.${key.replace(/\./g, '\\.')}}`,
  ]);

describe.skipIf(skip !== undefined)('the Flow page shows the rollout', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ({ up, url, kubectl } = await startSeededUp(mkdtempSync(join(tmpdir(), 'flowops-ui-rollout-'))));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The printed link signs the admin in (its token becomes a cookie).
    const link = (/Web view: (\S+)/.exec(up.stdout()) ?? [])[1] ?? '';
    await page.goto(link);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (up && up.child.exitCode === null) {
      up.child.kill('SIGTERM');
      await up.exited;
    }
  });

  it('stages, generations, failed objects follow the status live; Promote asks, then annotates', async () => {
    await writeStatus(
      {
        generation: 2,
        fromGeneration: 1,
        state: 'Paused',
        currentStage: 0,
        startedAt: new Date().toISOString(),
        message: 'stage 1 of 2 paused until promoted',
        stages: [stage(0, 1, 1, 1, 'Paused'), stage(1, 3, 0, 0, 'Pending')],
      },
      [
        { generation: 2, revision: 'database-operator-g2', objects: 1, ready: 1 },
        { generation: 1, revision: 'database-operator-g1', objects: 2, ready: 2 },
      ],
    );
    await page.goto(`${url}/ui/flows/default/database-operator`);
    const section = page.locator('section[data-rollout]');
    await page.locator('section[data-rollout="Paused"]').waitFor({ timeout: 15_000 });
    expect(await section.locator('[data-rollout-message]').innerText()).toContain('paused until promoted');
    expect(await section.locator('tr[data-stage="0"]').innerText()).toMatch(/^1\s+1\s+1\s+1\s+Paused$/);
    expect(await section.locator('tr[data-stage="0"]').getAttribute('aria-current')).toBe('step');
    expect(await section.locator('tr[data-generation="1"]').innerText()).toMatch(/^1\s+database-operator-g1\s+2\s+2$/);
    const controls = section.getByRole('toolbar', { name: 'Rollout controls' }).getByRole('button');
    // Resume means nothing here (no `flowops rollout pause`): not offered.
    expect(await controls.allInnerTexts()).toEqual(['Promote', 'Pause', 'Abort']);
    await page.screenshot({ path: join(SHOTS, 'flow-rollout.png'), fullPage: true });

    await section.getByRole('button', { name: 'Promote' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      'Flow default/database-operator, rollout of generation 2: The paused stage passes',
    );
    expect(await annotation('flowops.io/rollout-promote')).toBe('');
    await dialog.getByRole('button', { name: 'Promote' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.locator('[data-action-outcome="ok"]').waitFor();
    expect(await section.locator('[data-action-outcome]').innerText()).toBe(
      'flow.flowops.io/database-operator promoted',
    );
    expect(Number.isNaN(Date.parse(await annotation('flowops.io/rollout-promote')))).toBe(false);

    // The engine moves on and then halts: the open page shows both without a reload.
    const halted = {
      generation: 2,
      fromGeneration: 1,
      state: 'Halted',
      currentStage: 1,
      message: 'stage 2 of 2 not Ready within 10m',
      stages: [stage(0, 1, 1, 1, 'Passed'), stage(1, 3, 2, 1, 'Failed')],
      failed: [{ object: 'default/other-db', reason: 'child StatefulSet other-db not Ready within 10m' }],
    };
    await writeStatus(halted, [{ generation: 2, revision: 'database-operator-g2', objects: 2, ready: 1 }]);
    await page.locator('section[data-rollout="Halted"]').waitFor({ timeout: 15_000 });
    expect(await section.locator('tr[data-stage="1"]').innerText()).toMatch(/^2\s+3\s+2\s+1\s+Failed$/);
    expect(await section.locator('[data-failed-object="default/other-db"]').innerText()).toBe(
      'default/other-db: child StatefulSet other-db not Ready within 10m',
    );
    await waitFor(async () => (await controls.allInnerTexts()).join() === 'Abort', {
      what: 'only Abort offered on a halt',
    });
    expect(await section.locator('tr[data-generation]').count()).toBe(1);

    // A page drawn before the halt still sends Promote: the server refuses it with the reason.
    const post = (body: unknown) =>
      page.evaluate(async (b) => {
        const res = await fetch('/ui/api/flows/default/database-operator/rollout', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: (await res.json()) as { error?: string } };
      }, body);
    expect(await post({ action: 'promote' })).toEqual({
      status: 409,
      body: {
        error:
          'Flow default/database-operator: cannot promote: the rollout is Halted; abort it, or commit a fix ' +
          '(a newer generation supersedes it)',
      },
    });
    expect(await post({ action: 'bogus' })).toEqual({
      status: 400,
      body: { error: 'action must be one of promote, pause, resume, abort' },
    });
  }, 90_000);
});
