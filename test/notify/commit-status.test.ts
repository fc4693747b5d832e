import type { KubeObject } from '../../src/kube/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/notify/index.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { runFlowops } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, flowSource } from '../gitops/fixtures.js';
import {
  alert,
  capturedLog,
  testNotifier,
  configMapFlow,
  configMapYaml,
  githubOpenApi,
  provider,
  secret,
  sourcesDir,
} from './fixtures.js';
import { startOpenApiReceiver, type OpenApiReceiver, type RecordedRequest } from './openapi-receiver.js';

const TOKEN = 'ghp_notify-test-token-0123456789';
const VIEW = 'http://127.0.0.1:7777';

interface StatusBody {
  state: string;
  description?: string;
  context?: string;
  target_url?: string;
}

/**
 * Commit status on GitHub: FlowOps syncs commits from a real Git server into the embedded API
 * server; the notifier posts each commit's state to a receiver that accepts only what GitHub's
 * published OpenAPI description (@octokit/openapi) allows.
 */
describe('commit status on the forge (GitHub)', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  let github: OpenApiReceiver;
  let notifier: Notifier;
  const captured = capturedLog();
  const sync = (): void => env.controllers.sources!.trigger('default', 'flows');
  const statusesOf = (sha: string): StatusBody[] =>
    github.requests.filter((r: RecordedRequest) => r.params.sha === sha).map((r) => r.body as StatusBody);
  const finalState = (sha: string): Promise<StatusBody> =>
    waitFor(() => statusesOf(sha).find((s) => s.state !== 'pending'), {
      what: `a final status for ${sha}`,
      timeoutMs: 40_000,
    });

  beforeAll(async () => {
    github = await startOpenApiReceiver(githubOpenApi(), { stripPrefix: '/api/v3' });
    env = await startFlowOps({ sources: { dataDir: sourcesDir() } });
    gitServer = await startGitServer();
    repo = gitServer.repo('flows');
    notifier = testNotifier(env.kube, captured.log, VIEW);
    notifier.start();
    await env.kube.create(secret('github-token', { token: TOKEN }));
    // GitHub Enterprise's form (https://host/owner/repo → https://host/api/v3/…), pointed at the receiver.
    await env.kube.create(
      provider('github', { type: 'github', address: `${github.url}/acme/flows`, secretRef: { name: 'github-token' } }),
    );
    await env.kube.create(
      alert('commits', { providerRef: { name: 'github' }, eventSources: [{ kind: 'FlowSource', name: 'flows' }] }),
    );
  });
  afterAll(async () => {
    await notifier?.stop();
    await env?.stop();
    await gitServer?.stop();
    await github?.stop();
  });

  it('posts pending, then success once every object the commit touched is Ready', async () => {
    const sha = await repo.commit({
      'flows/demo.yaml': configMapFlow('demo', 'demo'),
      'objects/one.yaml': configMapYaml('one', 'demo'),
    });
    await env.kube.create(flowSource('flows', repo.url));
    await attempted(env.kube, 'flows', sha);
    const final = await finalState(sha);
    expect(github.errors).toEqual([]);
    const states = statusesOf(sha);
    expect(states[0]).toMatchObject({ state: 'pending', context: 'flowops/default/flows' });
    expect(final).toMatchObject({
      state: 'success',
      context: 'flowops/default/flows',
      target_url: `${VIEW}/ui/sources/default/flows#${sha}`,
    });
    const req = github.requests.find((r) => r.params.sha === sha)!;
    expect(req.operationId).toBe('repos/create-commit-status');
    expect(req.params).toMatchObject({ owner: 'acme', repo: 'flows' });
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // The Flow did run: its child exists.
    expect(
      await env.kube.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'one-child' }),
    ).toBeDefined();
  });

  it('posts error with the first file:line for a rejected commit, recorded for `flowops history`', async () => {
    const sha = await repo.commit({
      'flows/broken.yaml': configMapFlow('broken', 'demo').replace('type: kubectl', 'type: kubectll'),
    });
    sync();
    await attempted(env.kube, 'flows', sha);
    const final = await finalState(sha);
    expect(final.state).toBe('error');
    expect(final.description).toMatch(/^rejected: flows\/broken\.yaml:\d+: spec\.reconcile\.steps\[0\]\.type/);
    expect(github.errors).toEqual([]);
    const src = await waitFor(
      async () => {
        const s = await env.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'FlowSource',
          namespace: 'default',
          name: 'flows',
        });
        const commits = (s?.status as { commits?: Array<{ revision: string; state: string }> } | undefined)?.commits;
        return commits?.[0]?.revision.endsWith(sha) ? commits : undefined;
      },
      { what: 'the commit state on the FlowSource' },
    );
    expect(src[0]!.state).toBe('error');
    expect(src.some((c) => c.state === 'success')).toBe(true);
    const cli = runFlowops(['history', 'flows', '--kubeconfig', env.ts.kubeconfig], { FLOWOPS_LOG_LEVEL: 'warn' });
    expect((await cli.exited).code).toBe(0);
    const rows = cli.stdout().trimEnd().split('\n');
    expect(rows[0]).toMatch(/^\s+REVISION\s+TIME\s+OUTCOME\s+STATE\s+MESSAGE$/);
    expect(rows[1]).toMatch(new RegExp(`main@sha1:${sha}\\s+\\S+\\s+Rejected\\s+error\\s`));
    expect(rows[2]).toMatch(/\s+Applied\s+success\s/);
  });

  it('posts failure naming the object that stalled', async () => {
    // The child's name is not a valid object name: the API server answers 422, a terminal failure.
    const sha = await repo.commit({
      'flows/broken.yaml': null,
      'flows/bad-child.yaml': configMapFlow('bad-child', 'stall', 'Not_A_Valid_Name'),
      'objects/two.yaml': configMapYaml('two', 'stall'),
    });
    sync();
    await attempted(env.kube, 'flows', sha);
    const final = await finalState(sha);
    expect(final.state).toBe('failure');
    expect(final.description).toMatch(/ConfigMap\/default\/two stalled/);
    expect(github.errors).toEqual([]);
  });

  it('keeps syncing while the forge answers 401/404/422/5xx or hangs; retries; says so; leaks no token', async () => {
    const answers: Array<number | 'hang'> = [401, 404, 422, 503, 'hang'];
    github.answer = () => answers.shift() ?? 201;
    await env.kube.patch(
      { apiVersion: 'flowops.io/v1', kind: 'Provider', namespace: 'default', name: 'github' },
      { spec: { timeout: '1s' } },
      'merge',
    );
    const reasons = new Set<string>();
    const sha = await repo.commit({
      'flows/bad-child.yaml': null,
      'objects/two.yaml': null,
      'objects/three.yaml': configMapYaml('three', 'demo'),
    });
    sync();
    const s = await attempted(env.kube, 'flows', sha);
    expect(s.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    // Each failed attempt is said on the Provider's Ready condition; the last answer (201) makes it Ready again.
    await waitFor(
      async () => {
        const p = await env.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'Provider',
          namespace: 'default',
          name: 'github',
        });
        const ready = (
          (p?.status ?? {}) as { conditions?: Array<{ type: string; status: string; reason?: string }> }
        ).conditions?.find((c) => c.type === 'Ready');
        if (ready?.status === 'False' && ready.reason) reasons.add(ready.reason);
        return answers.length === 0 && ready?.status === 'True' && statusesOf(sha).some((b) => b.state === 'success')
          ? true
          : undefined;
      },
      { what: 'the provider to recover and the success status to arrive', timeoutMs: 60_000, intervalMs: 20 },
    );
    expect(reasons.size).toBeGreaterThan(0);
    // Meanwhile the source went on syncing: a further commit applies.
    const next = await repo.commit({ 'objects/four.yaml': configMapYaml('four', 'demo') });
    sync();
    expect((await attempted(env.kube, 'flows', next)).history![0]!.outcome).toBe('Applied');
    // No token in logs, Events, or any status.
    const events = (await env.kube.list('v1', 'Event', {})).items;
    const statuses = [
      ...(await env.kube.list('flowops.io/v1', 'Provider', {})).items,
      ...(await env.kube.list('flowops.io/v1', 'FlowSource', {})).items,
    ].map((o: KubeObject) => o.status);
    expect(captured.lines.join('')).toContain('notification failed');
    for (const text of [captured.lines.join(''), JSON.stringify(events), JSON.stringify(statuses)])
      expect(text).not.toContain(TOKEN);
  });

  it('says at once that a Provider whose Secret is missing is not Ready, naming the field', async () => {
    await env.kube.create(
      provider('no-secret', { type: 'github', address: `${github.url}/acme/flows`, secretRef: { name: 'absent' } }),
    );
    const ready = await waitFor(
      async () => {
        const p = await env.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'Provider',
          namespace: 'default',
          name: 'no-secret',
        });
        const conditions = (
          (p?.status ?? {}) as {
            conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
          }
        ).conditions;
        return conditions?.find((c) => c.type === 'Ready');
      },
      { what: "the Provider's Ready condition" },
    );
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'SecretNotFound',
      message: 'spec.secretRef: Secret default/absent not found',
    });
  });

  it('says on the Alert when its spec is not usable, naming the field', async () => {
    await env.kube.create(
      alert('bad-regex', {
        providerRef: { name: 'github' },
        eventSources: [{ kind: 'Flow' }],
        inclusionList: ['(unclosed'],
      }),
    );
    const ready = await waitFor(
      async () => {
        const a = await env.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'Alert',
          namespace: 'default',
          name: 'bad-regex',
        });
        return ((a?.status ?? {}) as { conditions?: Array<{ type: string; status: string }> }).conditions?.find(
          (c) => c.type === 'Ready',
        );
      },
      { what: "the Alert's Ready condition" },
    );
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
      message: expect.stringMatching(/^spec\.inclusionList\.0: /),
    });
  });
});
