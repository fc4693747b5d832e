import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/notify/index.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, flowSource } from '../gitops/fixtures.js';
import { cachedAlertmanager, startAlertmanager, type RunningAlertmanager } from './alertmanager-binary.js';
import { alert, capturedLog, configMapFlow, configMapYaml, provider, secret, sourcesDir } from './fixtures.js';

const HMAC_KEY = 'webhook-hmac-key-not-for-logs';
const amBin = cachedAlertmanager();

interface WebhookBody {
  revision?: string;
  total: number;
  events: Array<{ reason: string; involved: { kind: string; name: string } }>;
}

/** A webhook receiver that checks X-Signature (HMAC-SHA256 of the raw body) before it accepts anything. */
async function startWebhookReceiver(): Promise<{
  url: string;
  bodies: WebhookBody[];
  badSignatures: number;
  server: Server;
}> {
  const r = { url: '', bodies: [] as WebhookBody[], badSignatures: 0, server: createServer() };
  r.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const want = Buffer.from(`sha256=${createHmac('sha256', HMAC_KEY).update(raw).digest('hex')}`);
      const got = Buffer.from(String(req.headers['x-signature'] ?? ''));
      if (got.length !== want.length || !timingSafeEqual(got, want)) {
        r.badSignatures++;
        return void res.writeHead(401).end();
      }
      r.bodies.push(JSON.parse(raw.toString('utf8')) as WebhookBody);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;
  return r;
}

/**
 * One grouped message per commit: the FlowSource's "Applied" and its Flows' "Ready" of one commit
 * reach a signed generic webhook, and the real Alertmanager (built by
 * scripts/control-plane/build-alertmanager.sh; skipped when it is not cached), as one message each.
 */
describe('grouped messages per commit', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  let notifier: Notifier;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let am: RunningAlertmanager | undefined;
  const captured = capturedLog();
  const shas: string[] = [];

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    am = amBin ? await startAlertmanager(amBin) : undefined;
    env = await startFlowOps({ sources: { dataDir: sourcesDir() } });
    gitServer = await startGitServer();
    repo = gitServer.repo('flows');
    notifier = new Notifier({ kube: env.kube, log: captured.log, backoff: { baseMs: 100, maxMs: 400 } });
    notifier.start();
    await env.kube.create(secret('hook', { token: HMAC_KEY }));
    await env.kube.create(provider('hook', { type: 'generic', address: hook.url, secretRef: { name: 'hook' } }));
    const sources = [
      { kind: 'FlowSource', name: 'flows' },
      { kind: 'Flow', name: '*' },
    ];
    await env.kube.create(
      alert('to-hook', { providerRef: { name: 'hook' }, eventSources: sources, groupWindow: '1h', summary: 'team-a' }),
    );
    if (am) {
      await env.kube.create(provider('am', { type: 'alertmanager', address: am.url }));
      await env.kube.create(alert('to-am', { providerRef: { name: 'am' }, eventSources: sources, groupWindow: '1h' }));
    }
  });
  afterAll(async () => {
    await notifier?.stop();
    await env?.stop();
    await gitServer?.stop();
    await am?.stop();
    await new Promise((r) => hook?.server.close(r));
  });

  /** Commits, waits for the source to apply it and its Flow to be Ready, then closes the groups. */
  async function commitAndSettle(files: Record<string, string | null>, flow: string): Promise<string> {
    const sha = await repo.commit(files);
    if (shas.length === 0) await env.kube.create(flowSource('flows', repo.url));
    else env.controllers.sources!.trigger('default', 'flows');
    shas.push(sha);
    await attempted(env.kube, 'flows', sha);
    await waitFor(
      async () => {
        const f = await env.kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: flow });
        const ready = (
          f?.status as { conditions?: Array<{ type: string; status: string }> } | undefined
        )?.conditions?.find((c) => c.type === 'Ready');
        return f?.metadata.annotations?.['flowops.io/revision']?.endsWith(sha) && ready?.status === 'True';
      },
      { what: `Flow ${flow} Ready at ${sha}` },
    );
    // The Flow's Ready reaches the notifier through its informer: wait until it is held with the
    // source's Applied in the commit's group, then close the group rather than wait out its window.
    const revision = `main@sha1:${sha}`;
    await waitFor(() => ['FlowSource:Applied', 'Flow:Ready'].every((r) => notifier.held(revision).includes(r)), {
      what: `both events of ${sha} grouped`,
    });
    notifier.flush();
    await waitFor(() => notifier.idle() && hook.bodies.some((b) => b.revision?.endsWith(sha)), {
      what: `the webhook message of ${sha}`,
    });
    return sha;
  }

  it('sends each commit as one signed message to the webhook', async () => {
    const a = await commitAndSettle(
      { 'flows/a.yaml': configMapFlow('alpha', 'a'), 'objects/x.yaml': configMapYaml('x', 'a') },
      'alpha',
    );
    const b = await commitAndSettle(
      { 'flows/b.yaml': configMapFlow('beta', 'b'), 'objects/y.yaml': configMapYaml('y', 'b') },
      'beta',
    );
    expect(hook.badSignatures).toBe(0);
    for (const sha of [a, b]) {
      const forCommit = hook.bodies.filter((m) => m.revision?.endsWith(sha));
      expect(forCommit).toHaveLength(1);
      expect(forCommit[0]!.events.map((e) => `${e.involved.kind}:${e.reason}`)).toEqual(
        expect.arrayContaining(['FlowSource:Applied', 'Flow:Ready']),
      );
    }
    expect(captured.lines.join('')).not.toContain(HMAC_KEY);
  });

  it.skipIf(!amBin)('gives the real Alertmanager one alert per commit (API v2)', async () => {
    const alerts = await waitFor(
      async () => {
        const res = await fetch(`${am!.url}/api/v2/alerts`);
        const list = (await res.json()) as Array<{
          labels: Record<string, string>;
          annotations: Record<string, string>;
        }>;
        return shas.every((sha) => list.some((x) => x.labels.revision?.endsWith(sha))) ? list : undefined;
      },
      { what: "Alertmanager to hold both commits' alerts" },
    );
    for (const sha of shas) {
      const forCommit = alerts.filter((x) => x.labels.revision?.endsWith(sha));
      expect(forCommit).toHaveLength(1);
      expect(forCommit[0]!.labels).toMatchObject({ alertname: 'FlowOps', flowops_alert: 'default/to-am' });
      expect(forCommit[0]!.annotations.description).toContain('FlowSource/default/flows Applied');
    }
  });
});
