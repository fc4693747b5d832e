import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { PreviewPoller, PullRequestPreviewer } from '../../src/preview/index.js';
import { webhookReceiver } from '../../src/source/webhook-receiver.js';
import { waitFor } from '../helpers/wait.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { gitAsync, startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { attempted, flowSource } from '../gitops/fixtures.js';
import { capturedLog, provider, secret, sourcesDir } from '../notify/fixtures.js';
import {
  bitbucketOpenApi,
  deploymentYaml,
  giteaOpenApi,
  gitlabDocumented,
  imageFlow,
  pushPullRequest,
} from './fixtures.js';
import { startFakeForge, type FakeForge, type ForgeKind } from './forge-server.js';

const TOKEN = 'forge-preview-token-0123456789';
const SOURCE = { apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name: 'flows' };

/**
 * The same preview on GitLab (merge requests and notes, against the shape its REST API pages
 * document: its OpenAPI document cannot be fetched here) and on Gitea/Forgejo (against the
 * OpenAPI description Gitea 1.27 ships, vendored by `npm run gen:forge-openapi`).
 */
describe('pull-request previews on GitLab, Gitea and Bitbucket Cloud', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  let main: string;
  const forges = new Map<ForgeKind, FakeForge>();
  const captured = capturedLog();
  let previewer: PullRequestPreviewer;
  const source = async (): Promise<KubeObject> =>
    (await env.kube.get(SOURCE)) ?? Promise.reject(new Error('no source'));

  beforeAll(async () => {
    forges.set('gitlab', await startFakeForge('gitlab', gitlabDocumented(), { token: TOKEN }));
    forges.set('gitea', await startFakeForge('gitea', giteaOpenApi(), { token: TOKEN, stripPrefix: '/api/v1' }));
    const bitbucket = await startFakeForge('bitbucket', bitbucketOpenApi(), { token: TOKEN, stripPrefix: '/2.0' });
    forges.set('bitbucket', bitbucket);
    const dataDir = sourcesDir();
    env = await startFlowOps({ sources: { dataDir } });
    gitServer = await startGitServer();
    repo = gitServer.repo('flows');
    previewer = new PullRequestPreviewer({ kube: env.kube, log: captured.log, dataDir });
    await env.kube.create(secret('forge-token', { token: TOKEN }));
    // GitLab projects sit in groups and subgroups; Gitea repositories are owner/repo.
    const paths: Record<string, string> = {
      gitlab: 'acme/platform/flows',
      gitea: 'acme/flows',
      bitbucket: 'acme/flows',
    };
    for (const [kind, forge] of forges)
      await env.kube.create(
        provider(kind, { type: kind, address: `${forge.url}/${paths[kind]}`, secretRef: { name: 'forge-token' } }),
      );
    main = await repo.commit({
      'flows/web.yaml': imageFlow('web', 'nginx:1.27'),
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.27'),
    });
    await env.kube.create(flowSource('flows', repo.url, { previews: { providerRef: { name: 'gitlab' } } }));
    await attempted(env.kube, 'flows', main);
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
    for (const f of forges.values()) await f.stop();
  });

  const cases: Array<{ kind: ForgeKind; ref: (n: number) => string; edit: string; state: string }> = [
    {
      kind: 'gitlab',
      ref: (n) => `refs/merge-requests/${n}/head`,
      edit: 'put /api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
      state: 'success',
    },
    {
      kind: 'gitea',
      ref: (n) => `refs/pull/${n}/head`,
      edit: 'patch /repos/{owner}/{repo}/issues/comments/{id}',
      state: 'success',
    },
    {
      // Bitbucket keeps no pull-request ref: the head is the source branch, listed by a 12-digit hash.
      kind: 'bitbucket',
      ref: (n) => `refs/heads/pr-${n}`,
      edit: 'put /repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/comments/{comment_id}',
      state: 'success',
    },
  ];

  for (const c of cases)
    it(`${c.kind}: one comment listing the changed field, edited in place on a second push, and a status`, async () => {
      const forge = forges.get(c.kind)!;
      await env.kube.patch(SOURCE, { spec: { previews: { providerRef: { name: c.kind } } } }, 'merge');
      const first = await pushPullRequest(repo, main, c.ref(7), {
        'objects/web.yaml': deploymentYaml('web', 'nginx:1.28'),
      });
      forge.openPull(7, first);
      forge.openPull(8, first, 'release');
      const [outcome, ...rest] = await previewer.previewSource(await source());
      expect(forge.errors).toEqual([]);
      expect(rest).toEqual([]);
      expect(outcome).toMatchObject({ pr: 7, sha: first, state: c.state });
      const [comment, ...more] = forge.comments(7);
      expect(more).toEqual([]);
      const row = '| changed | Deployment default/web | `spec.template.spec.containers[0].image` |';
      expect(comment!.body).toContain(row);
      const second = await pushPullRequest(repo, main, c.ref(7), {
        'objects/web.yaml': deploymentYaml('web', 'nginx:1.29', 2),
      });
      forge.openPull(7, second);
      await previewer.previewSource(await source());
      expect(forge.errors).toEqual([]);
      expect(forge.comments(7)).toHaveLength(1);
      expect(forge.comments(7)[0]!.id).toBe(comment!.id);
      expect(forge.comments(7)[0]!.body).toContain(
        '| changed | Deployment default/web | `spec.replicas`, `spec.template.spec.containers[0].image` |',
      );
      expect(forge.calls.filter((x) => x === c.edit)).toHaveLength(1);
      // GitLab says running/success; the fake keeps what was sent, as the forge would.
      const states = forge.statuses(second).map((s) => s.state);
      const sent: Record<ForgeKind, string[]> = {
        gitlab: ['running', 'success'],
        bitbucket: ['INPROGRESS', 'SUCCESSFUL'],
        gitea: ['pending', 'success'],
        github: ['pending', 'success'],
      };
      expect(states).toEqual(sent[c.kind]);
      expect(forge.statuses(second)[1]!.context).toBe('flowops/preview/default/flows');
      expect(captured.lines.join('')).not.toContain(TOKEN);
    });

  it("bitbucket: a fork's pull request is fetched from the fork's repository on the same Git server", async () => {
    const forge = forges.get('bitbucket')!;
    await env.kube.patch(SOURCE, { spec: { previews: { providerRef: { name: 'bitbucket' } } } }, 'merge');
    // The fork holds main's history and its own branch; the base repository never sees the head.
    const fork = gitServer.repo('someone/flows-fork');
    // gitAsync, not the sync helper: the Git server answers on this process's event loop.
    await gitAsync(fork.work, 'fetch', '-q', repo.url, 'main');
    fork.git('checkout', '-q', '-b', 'fix', 'FETCH_HEAD');
    writeFileSync(join(fork.work, 'objects/web.yaml'), deploymentYaml('web', 'nginx:1.31'));
    fork.git('commit', '-qam', 'a change from a fork');
    await gitAsync(fork.work, 'push', '-q', 'origin', 'HEAD:refs/heads/fix');
    const sha = fork.git('rev-parse', 'HEAD');
    await expect(gitAsync(repo.work, 'fetch', '-q', 'origin', sha)).rejects.toThrow();
    forge.openPull(11, sha, 'main', { repository: 'someone/flows-fork', branch: 'fix' });
    const before = gitServer.requests.length;
    const outcomes = await previewer.previewSource(await source(), 11);
    expect(forge.errors).toEqual([]);
    expect(outcomes).toMatchObject([{ pr: 11, sha, state: 'success' }]);
    expect(gitServer.requests.slice(before).some((r) => r.startsWith('GET /someone/flows-fork.git/info/refs'))).toBe(
      true,
    );
    expect(forge.comments(11)[0]?.body).toContain(
      '| changed | Deployment default/web | `spec.template.spec.containers[0].image` |',
    );
  });

  it("runs each source's previews in the background; a merge request webhook starts a pass at once", async () => {
    const forge = forges.get('gitlab')!;
    await env.kube.create(secret('hook', { token: 'hook-token' }));
    await env.kube.patch(
      SOURCE,
      { spec: { webhookSecretRef: { name: 'hook' }, previews: { providerRef: { name: 'gitlab' }, interval: '1h' } } },
      'merge',
    );
    const poller = new PreviewPoller({ kube: env.kube, log: captured.log, dataDir: sourcesDir(), tickMs: 50 });
    const receiver = webhookReceiver({
      kube: env.kube,
      log: captured.log,
      trigger: () => undefined,
      previewTrigger: (ns, n) => poller.trigger(ns, n),
    });
    const hooks = createServer((req, res) => void receiver(req, res, new URL(req.url ?? '/', 'http://hooks')));
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    try {
      const listNotes = (): number => forge.calls.filter((x) => x.startsWith('get ') && x.endsWith('/notes')).length;
      const before = listNotes();
      poller.start();
      // The first pass finds merge request 7 already previewed at its head (the comment's marker).
      await waitFor(() => listNotes() > before, { what: 'the first pass' });
      expect(forge.comments(7)).toHaveLength(1);
      const sha = await pushPullRequest(repo, main, 'refs/merge-requests/9/head', {
        'objects/web.yaml': deploymentYaml('web', 'nginx:1.30'),
      });
      forge.openPull(9, sha);
      const port = (hooks.address() as AddressInfo).port;
      const hook = await request(`http://127.0.0.1:${port}/hooks/default/flows`, {
        method: 'POST',
        headers: { 'x-gitlab-token': 'hook-token', 'x-gitlab-event': 'Merge Request Hook' },
        body: JSON.stringify({ object_kind: 'merge_request', object_attributes: { iid: 9 } }),
      });
      expect(hook.statusCode).toBe(202);
      expect(await hook.body.text()).toContain('previewing');
      const comment = await waitFor(() => forge.comments(9)[0], { what: 'the comment on merge request 9' });
      expect(comment.body).toContain(`at \`${sha.slice(0, 12)}\``);
      expect(forge.comments(7)).toHaveLength(1);
      expect(forge.errors).toEqual([]);
    } finally {
      await poller.stop();
      hooks.closeAllConnections();
      await new Promise<void>((r) => hooks.close(() => r()));
    }
  });

  it('the forge in the test refuses what the description does not allow', async () => {
    const forge = forges.get('gitea')!;
    const before = forge.errors.length;
    const url = `${forge.url}/api/v1/repos/acme/flows/issues/7/comments`;
    const headers = { authorization: `token ${TOKEN}`, 'content-type': 'application/json' };
    const misspelt = await request(url, { method: 'POST', headers, body: JSON.stringify({ bdy: 'x' }) });
    expect(misspelt.statusCode).toBe(422);
    const verb = await request(url, { method: 'PUT', headers, body: '{}' });
    expect(verb.statusCode).toBe(404);
    const query = await request(`${url}?per_page=100`, { method: 'GET', headers });
    await Promise.all([misspelt.body.text(), verb.body.text(), query.body.text()]);
    expect(forge.errors.slice(before)).toEqual([
      expect.stringMatching(/^post \/repos\/\{owner\}\/\{repo\}\/issues\/\{index\}\/comments: /),
      'PUT /repos/acme/flows/issues/7/comments: no such operation in the API description',
      'get /repos/{owner}/{repo}/issues/{index}/comments: query parameter per_page is not one the operation declares',
    ]);
    forge.errors.splice(before);
  });
});
