import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import type { Notifier } from '../../src/notify/index.js';
import { PullRequestPreviewer } from '../../src/preview/index.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { git, gitAsync } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, flowSource } from '../gitops/fixtures.js';
import { alert, capturedLog, configMapFlow, provider, secret, sourcesDir, testNotifier } from '../notify/fixtures.js';
import { giteaSkipReason, startGitea, type Gitea } from './gitea.js';

// Every commit answers back on a real forge: the real Gitea (built from the Go module proxy by
// scripts/control-plane/build-gitea.sh) holds the repository FlowOps syncs from, takes the commit
// statuses of each applied commit, and the pull request whose preview FlowOps comments on. What
// is asserted is what Gitea itself stored and answers through its own REST API.

if (giteaSkipReason) console.warn(`test/real/gitea-forge.test.ts skipped: ${giteaSkipReason}`);

/** A plain object of the repository (kstatus: Ready once it exists), with one value to change. */
const settings = (v: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-settings\n  namespace: default\ndata:\n  v: "${v}"\n`;

/** Gitea answers a commit status with `status` (what was sent as `state`). */
interface GiteaStatus {
  id: number;
  status: string;
  context: string;
  description: string;
  target_url: string;
}
interface GiteaComment {
  id: number;
  body: string;
}

describe.skipIf(giteaSkipReason !== '')('commit status and pull-request previews on a real Gitea', () => {
  let gitea: Gitea;
  let env: FlowOpsEnv;
  let notifier: Notifier;
  let previewer: PullRequestPreviewer;
  let work: string;
  let main: string;
  const captured = capturedLog();
  const VIEW = 'http://127.0.0.1:7777';
  const repoPath = (): string => `/repos/${gitea.user}/flows`;
  const statuses = (sha: string): Promise<GiteaStatus[]> =>
    gitea
      .api<GiteaStatus[]>('GET', `${repoPath()}/commits/${sha}/statuses?limit=50`)
      .then((list) => list.sort((a, b) => a.id - b.id));
  const source = async (): Promise<KubeObject> =>
    (await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      namespace: 'default',
      name: 'flows',
    })) ?? Promise.reject(new Error('no FlowSource'));
  /** Writes the files, commits on `branch` from `from`, pushes to Gitea; the commit's sha. */
  const push = async (from: string, branch: string, files: Record<string, string>): Promise<string> => {
    git(work, 'checkout', '-q', '--detach', from);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', `change on ${branch}`);
    await gitAsync(work, 'push', '-q', '--force', 'origin', `HEAD:refs/heads/${branch}`);
    return git(work, 'rev-parse', 'HEAD');
  };

  beforeAll(async () => {
    gitea = await startGitea();
    await gitea.api('POST', '/user/repos', { name: 'flows', default_branch: 'main', auto_init: false, private: false });
    work = mkdtempSync(join(tmpdir(), 'gitea-work-'));
    git(work, 'init', '-q', '-b', 'main');
    const authed = gitea.url.replace('http://', `http://${gitea.user}:${gitea.token}@`);
    git(work, 'remote', 'add', 'origin', `${authed}/${gitea.user}/flows.git`);
    writeFileSync(join(work, 'README.md'), 'flows\n');
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'empty');
    await gitAsync(work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    const dataDir = sourcesDir();
    env = await startFlowOps({ sources: { dataDir } });
    notifier = testNotifier(env.kube, captured.log, VIEW);
    notifier.start();
    previewer = new PullRequestPreviewer({ kube: env.kube, log: captured.log, dataDir, viewUrl: VIEW });
    await env.kube.create(secret('gitea-token', { token: gitea.token }));
    await env.kube.create(
      provider('gitea', {
        type: 'gitea',
        address: `${gitea.url}/${gitea.user}/flows`,
        secretRef: { name: 'gitea-token' },
      }),
    );
    await env.kube.create(
      alert('commits', { providerRef: { name: 'gitea' }, eventSources: [{ kind: 'FlowSource', name: 'flows' }] }),
    );
  }, 180_000);
  afterAll(async () => {
    await notifier?.stop();
    await env?.stop();
    await gitea?.stop();
  });

  it('an applied commit gets pending, then success once its objects are Ready, stored by Gitea', async () => {
    const base = git(work, 'rev-parse', 'HEAD');
    main = await push(base, 'main', {
      'flows/web.yaml': configMapFlow('web', 'web'),
      'objects/web.yaml': settings('1'),
    });
    await env.kube.create(
      flowSource('flows', `${gitea.url}/${gitea.user}/flows.git`, { previews: { providerRef: { name: 'gitea' } } }),
    );
    await attempted(env.kube, 'flows', main);
    const final = await waitFor(
      async () => (await statuses(main)).find((s) => s.context === 'flowops/default/flows' && s.status !== 'pending'),
      { what: 'a final commit status stored by Gitea', timeoutMs: 60_000 },
    );
    expect(final).toMatchObject({ status: 'success', target_url: `${VIEW}/ui/sources/default/flows#${main}` });
    // In the order Gitea stored them: pending came first.
    const states = (await statuses(main)).filter((s) => s.context === 'flowops/default/flows').map((s) => s.status);
    expect(states).toEqual(['pending', 'success']);
  });

  it('a pull request gets one preview comment, edited in place on a push, a status, and nothing applied', async () => {
    const head = await push(main, 'bigger', { 'objects/web.yaml': settings('2') });
    const pull = await gitea.api<{ number: number }>('POST', `${repoPath()}/pulls`, {
      head: 'bigger',
      base: 'main',
      title: 'a new setting',
    });
    const [outcome] = await previewer.previewSource(await source());
    expect(outcome).toMatchObject({ pr: pull.number, sha: head, state: 'success' });
    const comments = (): Promise<GiteaComment[]> =>
      gitea.api<GiteaComment[]>('GET', `${repoPath()}/issues/${pull.number}/comments`);
    const [comment, ...more] = await comments();
    expect(more).toEqual([]);
    expect(comment?.body).toContain(`at \`${head.slice(0, 12)}\``);
    expect(comment?.body).toContain('| changed | ConfigMap default/web-settings | `data.v` |');
    const preview = (await statuses(head)).filter((s) => s.context === 'flowops/preview/default/flows').at(-1);
    expect(preview).toMatchObject({ status: 'success' });
    expect(preview?.description).toContain('1 changed');
    // A second push to the request: the same comment, now at the new head.
    const second = await push(head, 'bigger', { 'objects/web.yaml': settings('3') });
    await waitFor(
      async () =>
        (await gitea.api<{ head: { sha: string } }>('GET', `${repoPath()}/pulls/${pull.number}`)).head.sha === second,
      { what: 'Gitea to see the new head of the pull request' },
    );
    await previewer.previewSource(await source());
    const after = await comments();
    expect(after.map((c) => c.id)).toEqual([comment?.id]);
    expect(after[0]?.body).toContain(`at \`${second.slice(0, 12)}\``);
    // Nothing of the request reached the cluster.
    const live = await env.kube.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'web-settings',
    });
    expect((live as { data?: Record<string, string> } | undefined)?.data).toEqual({ v: '1' });
    expect(captured.lines.join('')).not.toContain(gitea.token);
  });
});
