import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookReceiver } from '../../src/source/webhook-receiver.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { attempted, flowNames, flowSource, flowYaml, sourceStatus } from './fixtures.js';

const TOKEN = 'hook-token-5b1e';
const hmac = (body: string, key = TOKEN): string => createHmac('sha256', key).update(body).digest('hex');

describe('webhook receiver: POST /hooks/<namespace>/<name>', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  const hook = (name: string, body: string, headers: Record<string, string>): Promise<Response> =>
    fetch(`${env.ts.server.url}/hooks/default/${name}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const push = (ref = 'refs/heads/main'): string => JSON.stringify({ ref, after: '0'.repeat(40) });

  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    env.ts.server.addRoute(
      webhookReceiver({
        kube: env.kube,
        log: pino({ level: 'silent' }),
        trigger: (ns, n) => env.controllers.sources!.trigger(ns, n),
      }),
    );
    gitServer = await startGitServer();
    repo = gitServer.repo('hooked');
    const first = await repo.commit({ 'a.yaml': flowYaml('hook-a') });
    await env.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'hook', namespace: 'default' },
      data: { token: Buffer.from(TOKEN).toString('base64') },
    });
    // Polls hourly: only the hooks below can make it fetch again.
    await env.kube.create(flowSource('hooked', repo.url, { webhookSecretRef: { name: 'hook' } }));
    await env.kube.create(flowSource('no-hook', repo.url));
    await attempted(env.kube, 'hooked', first);
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
  });

  it('GitHub: a good signature triggers a fetch, a bad one is refused', async () => {
    const sha = await repo.commit({ 'b.yaml': flowYaml('hook-b') });
    const body = push();
    const bad = await hook('hooked', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${hmac(body, 'not-the-token')}`,
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: 'signature does not match' });
    expect((await sourceStatus(env.kube, 'hooked')).lastAttemptedRevision).not.toContain(sha);
    const good = await hook('hooked', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${hmac(body)}`,
    });
    expect(good.status).toBe(202);
    await attempted(env.kube, 'hooked', sha);
    expect(await flowNames(env.kube)).toEqual(['hook-a', 'hook-b']);
  });

  it('GitLab token and Gitea signature', async () => {
    const sha1 = await repo.commit({ 'c.yaml': flowYaml('hook-c') });
    expect((await hook('hooked', push(), { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' })).status).toBe(
      401,
    );
    expect((await hook('hooked', push(), { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': TOKEN })).status).toBe(202);
    await attempted(env.kube, 'hooked', sha1);
    const sha2 = await repo.commit({ 'd.yaml': flowYaml('hook-d') });
    const body = push();
    expect((await hook('hooked', body, { 'x-gitea-event': 'push', 'x-gitea-signature': hmac(body) })).status).toBe(202);
    await attempted(env.kube, 'hooked', sha2);
  });

  it('acknowledges pings and pushes to other branches without fetching', async () => {
    const ping = JSON.stringify({ zen: 'hi' });
    expect(
      (await hook('hooked', ping, { 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${hmac(ping)}` })).status,
    ).toBe(200);
    const other = push('refs/heads/feature');
    const r = await hook('hooked', other, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(other)}` });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ message: 'ignored: refs/heads/feature is not followed by this source' });
  });

  it('refuses sources without a webhook secret, unknown sources and unsigned calls alike', async () => {
    for (const name of ['no-hook', 'missing']) {
      const r = await hook(name, push(), { 'x-gitlab-token': TOKEN });
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ message: 'webhook not enabled for this source' });
    }
    expect((await hook('hooked', push(), {})).status).toBe(401);
  });
});
