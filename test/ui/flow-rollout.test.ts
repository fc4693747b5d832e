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

// The Flow page's rollout section in a real browser against a real `flowops up`, whose rollout engine
// moves the seed Flow's new generation through its stages (docs/rollout.md): the page follows the
// status live and its Promote is what lets a paused stage pass.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/flow-rollout.test.ts: ${skip}`);
const SHOTS = join(ROOT, 'test-results', 'ui');

let up: CliProcess;
let url: string;
let kubectl: Kubectl;
let browser: Browser;
let page: Page;

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

  it('a paused stage shows live with its stages and generations; Promote asks, annotates, and the rollout completes', async () => {
    // spec.rollout is a change of the Flow's spec: its new generation rolls out, and stops after stage 1.
    const rollout = { stages: [{ count: 1, pause: { untilPromoted: true } }, { percent: 100 }] };
    await kubectl.ok([
      'patch',
      'flow',
      'database-operator',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { rollout } }),
    ]);
    await page.goto(`${url}/ui/flows/default/database-operator`);
    const section = page.locator('section[data-rollout]');
    await page.locator('section[data-rollout="Paused"]').waitFor({ timeout: 60_000 });
    expect(await section.locator('tr[data-stage="0"]').innerText()).toMatch(/^1\s+1\s+1\s+1\s+Paused$/);
    expect(await section.locator('tr[data-stage="0"]').getAttribute('aria-current')).toBe('step');
    const flow = JSON.parse(await kubectl.ok(['get', 'flow', 'database-operator', '-o', 'json'])) as {
      metadata: { generation: number };
    };
    const g = flow.metadata.generation;
    expect(await section.locator(`tr[data-generation="${g}"]`).innerText()).toMatch(
      new RegExp(`^${g}\\s+database-operator-g${g}\\s+1\\s+1$`),
    );
    const controls = section.getByRole('toolbar', { name: 'Rollout controls' }).getByRole('button');
    // Resume means nothing here (no `flowops rollout pause`): not offered.
    expect(await controls.allInnerTexts()).toEqual(['Promote', 'Pause', 'Abort']);
    await page.screenshot({ path: join(SHOTS, 'flow-rollout.png'), fullPage: true });

    await section.getByRole('button', { name: 'Promote' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      `Flow default/database-operator, rollout of generation ${g}: The paused stage passes`,
    );
    expect(await annotation('flowops.io/rollout-promote')).toBe('');
    await dialog.getByRole('button', { name: 'Promote' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.locator('[data-action-outcome="ok"]').waitFor();
    expect(await section.locator('[data-action-outcome]').innerText()).toBe(
      'flow.flowops.io/database-operator promoted',
    );
    expect(Number.isNaN(Date.parse(await annotation('flowops.io/rollout-promote')))).toBe(false);

    // The engine moves on: the open page shows the rollout complete without a reload.
    await page.locator('section[data-rollout="Complete"]').waitFor({ timeout: 60_000 });
    await waitFor(async () => (await controls.count()) === 0, { what: 'no control offered on a complete rollout' });

    // A page drawn before the end still sends Promote: the server refuses it with the reason.
    const post = (body: unknown) =>
      page.evaluate(async (b) => {
        const res = await fetch('/ui/api/flows/default/database-operator/rollout', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: (await res.json()) as { error?: string } };
      }, body);
    const late = await post({ action: 'promote' });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(
      /^Flow default\/database-operator: cannot promote: its rollout of generation \d+ is Complete$/,
    );
    expect(await post({ action: 'bogus' })).toEqual({
      status: 400,
      body: { error: 'action must be one of promote, pause, resume, abort' },
    });
  }, 180_000);
});
