import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { uiRoute, type UiRoute } from '../../src/ui-server/route.js';
import { startAuthTestServer, type AuthTestServer } from '../helpers/apiserver.js';
import { browserSkipReason, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

// The web view as `flowops run` serves it (per-user: everyone signs in with their own token), in a
// real browser, on the embedded API server with authentication and RBAC on: a token without rights
// is let in and sees the server's 403 messages, not data; a reader's token sees the Flows.

const skip = browserSkipReason();
if (skip) console.warn(`test/ui/sign-in.test.ts: ${skip}`);
const SHOTS = join(ROOT, 'test-results', 'ui');

describe.skipIf(skip !== undefined)('signing in to the web view of `flowops run`', () => {
  let api: AuthTestServer;
  let kubectl: Kubectl;
  let ui: UiRoute;
  let http: Server;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'ui', 'dist', 'index.html'))) {
      const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
      if (built.status !== 0) throw new Error('could not build the web view');
    }
    mkdirSync(SHOTS, { recursive: true });
    api = await startAuthTestServer();
    kubectl = kubectlFor(api.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
    await kubectl.ok([
      'apply',
      '-f',
      join(ROOT, 'config/crd/flowops.io_flows.yaml'),
      '-f',
      join(ROOT, 'config/crd/flowops.io_flowsources.yaml'),
    ]);
    await kubectl.ok(['wait', '--for=condition=Established', 'crd/flows.flowops.io', 'crd/flowsources.flowops.io']);
    await kubectl.ok(['apply', '-f', join(ROOT, 'repos-example/database-operator/flow.yaml')]);
    ui = uiRoute({
      kube: KubeClient.fromKubeconfig(api.kubeconfig),
      log: pino({ level: 'silent' }),
      access: 'per-user',
      loopbackOnly: true,
    });
    http = createServer(
      (req, res) =>
        void ui.handle(req, res, new URL(req.url ?? '/', 'http://x')).then((done) => done || res.writeHead(404).end()),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    http?.closeAllConnections();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await api?.stop();
  });

  const signInAs = async (serviceAccount: string): Promise<void> => {
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${base}/ui/`);
    const token = (await kubectl.ok(['create', 'token', serviceAccount, '-n', 'default'])).trim();
    await page.getByLabel('Bearer token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('a token without rights is signed in and sees the 403 messages, no Flows', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'nobody', '-n', 'default']);
    await signInAs('nobody');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: 'flows.flowops.io is forbidden' });
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'flows.flowops.io is forbidden: User "system:serviceaccount:default:nobody" cannot list resource "flows" in API group "flowops.io" at the cluster scope',
    );
    expect(await page.getByText('database-operator').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'sign-in-forbidden.png'), fullPage: true });
  });

  it('a bad token is refused on the form with the reason', async () => {
    page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/ui/`);
    await page.getByLabel('Bearer token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'the API server did not accept this token' }).waitFor();
  });

  it('a reader sees the Flow', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'reader', '-n', 'default']);
    await kubectl.ok([
      'create',
      'clusterrole',
      'flow-reader',
      '--verb=get,list,watch',
      '--resource=flows.flowops.io,flowsources.flowops.io',
    ]);
    await kubectl.ok([
      'create',
      'clusterrolebinding',
      'flow-reader',
      '--clusterrole=flow-reader',
      '--serviceaccount=default:reader',
    ]);
    await signInAs('reader');
    await page.getByRole('link', { name: 'database-operator' }).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'sign-in-reader.png'), fullPage: true });
  });

  it('a ServiceAccount that may read only default sees the Flow there, listed namespace by namespace', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'scoped', '-n', 'default']);
    await kubectl.ok([
      'create',
      'role',
      'flow-viewer',
      '-n',
      'default',
      '--verb=get,list,watch',
      '--resource=flows.flowops.io,flowsources.flowops.io',
    ]);
    await kubectl.ok([
      'create',
      'rolebinding',
      'flow-viewer',
      '-n',
      'default',
      '--role=flow-viewer',
      '--serviceaccount=default:scoped',
    ]);
    await signInAs('scoped');
    await page.locator('tr[data-flow="database-operator"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-scoped]').innerText()).toContain('flows.flowops.io: only in namespace default');
    expect(await page.locator('[data-signed-in-as]').innerText()).toBe('system:serviceaccount:default:scoped');
    // Events are not granted: said, and no "all ready" over them.
    expect(await page.locator('[data-summary]').innerText()).not.toContain('all ready');
    await page.screenshot({ path: join(SHOTS, 'sign-in-namespace-scoped.png'), fullPage: true });
  });
});
