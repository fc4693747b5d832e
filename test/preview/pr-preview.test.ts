import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { listPreviews } from '../../src/preview/preview-store.js';
import { PullRequestPreviewer } from '../../src/preview/previewer.js';
import type { KubeObject } from '../../src/kube/types.js';
import { runFlowops } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { attempted, flowSource } from '../gitops/fixtures.js';
import { capturedLog, githubOpenApi, provider, secret, sourcesDir } from '../notify/fixtures.js';
import { startFakeForge, type FakeForge } from './forge-server.js';
import { deploymentYaml, imageFlow, pushPullRequest, scriptedFlow, secretYaml } from './fixtures.js';
import { CRDS } from '../typecheck/corpus.js';

const TOKEN = 'ghp_preview-test-token-0123456789';
const SOURCE = { apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name: 'flows' };
const MARKER = '<!-- flowops-preview source=default/flows -->';
/** The real sops binary (FLOWOPS_SOPS, as .ci/run builds it); the SOPS preview is skipped without it. */
const SOPS = process.env.FLOWOPS_SOPS ?? 'sops';
const haveSops = ((): boolean => {
  try {
    execFileSync(SOPS, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const storeCrd = (): KubeObject => parseAllDocuments(readFileSync(CRDS, 'utf8'))[0]?.toJS() as KubeObject;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/**
 * Pull-request previews on GitHub: a real Git server holds the repository (main applied by the
 * FlowSource, pull-request heads under refs/pull/N/head); a forge in the test that accepts only
 * what GitHub's published REST description (@octokit/openapi) allows lists the open pull requests
 * and keeps their comments and statuses. FlowOps previews each head against the embedded API server.
 */
describe('pull-request previews (GitHub)', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  let github: FakeForge;
  let previewer: PullRequestPreviewer;
  let main: string;
  const captured = capturedLog();
  const source = async (): Promise<KubeObject> =>
    (await env.kube.get(SOURCE)) ?? Promise.reject(new Error('no source'));
  const liveDeployment = async (): Promise<KubeObject | undefined> =>
    env.kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' });
  const finalStatus = (sha: string): { state: string; description?: string; context: string } | undefined =>
    github
      .statuses(sha)
      .filter((s) => s.state !== 'pending')
      .at(-1);

  beforeAll(async () => {
    github = await startFakeForge('github', githubOpenApi(), { token: TOKEN, stripPrefix: '/api/v3' });
    const dataDir = sourcesDir();
    env = await startFlowOps({ sources: { dataDir } });
    gitServer = await startGitServer();
    repo = gitServer.repo('flows');
    previewer = new PullRequestPreviewer({
      kube: env.kube,
      log: captured.log,
      dataDir,
      viewUrl: 'http://127.0.0.1:7777',
    });
    await env.kube.create(secret('github-token', { token: TOKEN }));
    await env.kube.create(
      provider('github', { type: 'github', address: `${github.url}/acme/flows`, secretRef: { name: 'github-token' } }),
    );
    main = await repo.commit({
      'flows/web.yaml': imageFlow('web', 'nginx:1.27'),
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.27'),
      'objects/db.yaml': secretYaml('db', 'old-password-0000'),
    });
    await env.kube.create(flowSource('flows', repo.url, { previews: { providerRef: { name: 'github' } } }));
    const s = await attempted(env.kube, 'flows', main);
    expect(s.history?.[0]?.outcome).toBe('Applied');
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
    await github?.stop();
  });

  it("comments the fields a change to a Flow's image changes, sets success, and applies nothing", async () => {
    const sha = await pushPullRequest(repo, main, 'refs/pull/1/head', {
      'flows/web.yaml': imageFlow('web', 'nginx:1.28'),
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.28'),
    });
    github.openPull(1, sha);
    const [outcome] = await previewer.previewSource(await source());
    expect(github.errors).toEqual([]);
    expect(outcome).toMatchObject({ pr: 1, sha, state: 'success' });
    const comments = github.comments(1);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toContain(`at \`${sha.slice(0, 12)}\``);
    expect(body).toContain('**2 changed, 0 created, 0 pruned** against live');
    expect(body).toContain('| changed | Deployment default/web | `spec.template.spec.containers[0].image` |');
    expect(body).toContain('| changed | Flow default/web | `spec.reconcile.steps[0].manifests` |');
    const folded = body.slice(body.indexOf('<details><summary>Full diff</summary>'));
    expect(folded).toMatch(/^-\s+image: nginx:1\.27\n\+\s+image: nginx:1\.28$/m);
    expect(github.statuses(sha).map((s) => s.state)).toEqual(['pending', 'success']);
    expect(finalStatus(sha)).toMatchObject({
      context: 'flowops/preview/default/flows',
      description: 'preview: 2 changed, 0 created, 0 pruned; nothing applied',
    });
    expect(github.calls).toContain('post /repos/{owner}/{repo}/issues/{issue_number}/comments');
    // Nothing applied: the live Deployment keeps main's image, and the source did not move.
    type Pod = { containers?: Array<{ image: string }> };
    const live = (await liveDeployment()) as { spec?: { template?: { spec?: Pod } } };
    expect(live.spec?.template?.spec?.containers?.[0]?.image).toBe('nginx:1.27');
    const status = (await source()).status as { lastAppliedRevision?: string };
    expect(status.lastAppliedRevision).toContain(main);
  });

  it('edits the same comment in place on a second push, and leaves an unchanged head alone', async () => {
    const first = github.comments(1)[0]!;
    const sha = await pushPullRequest(repo, main, 'refs/pull/1/head', {
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.28', 3),
    });
    github.openPull(1, sha);
    const [outcome] = await previewer.previewSource(await source());
    expect(github.errors).toEqual([]);
    expect(outcome).toMatchObject({ pr: 1, sha, state: 'success', commentId: first.id });
    const comments = github.comments(1);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).toBe(first.id);
    expect(comments[0]!.body).toContain(`at \`${sha.slice(0, 12)}\``);
    expect(comments[0]!.body).toContain(
      '| changed | Deployment default/web | `spec.replicas`, `spec.template.spec.containers[0].image` |',
    );
    expect(github.calls.filter((c) => c.startsWith('patch '))).toEqual([
      'patch /repos/{owner}/{repo}/issues/comments/{comment_id}',
    ]);
    // A new previewer (a restart) reads the marker: the same head is not previewed again.
    const again = new PullRequestPreviewer({ kube: env.kube, log: captured.log, dataDir: sourcesDir() });
    expect(await again.previewSource(await source())).toEqual([
      { pr: 1, sha, state: 'unchanged', commentId: first.id, description: 'already previewed' },
    ]);
    expect(github.comments(1)).toHaveLength(1);
    // The web view's copy lost (deleted by hand, or an older FlowOps kept none), then a restart:
    // the comment can no longer be told from a look-alike, so the head is previewed again into a
    // new comment, whose id the new copy remembers.
    await env.kube.delete({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'flowops-preview-flows-1',
    });
    const restarted = new PullRequestPreviewer({ kube: env.kube, log: captured.log, dataDir: sourcesDir() });
    const [restored] = await restarted.previewSource(await source());
    expect(restored).toMatchObject({ pr: 1, sha, state: 'success' });
    expect(restored?.commentId).not.toBe(first.id);
    expect(github.comments(1).map((c) => c.id)).toEqual([first.id, restored?.commentId]);
    const copy = await waitFor(
      () => listPreviews(env.kube, 'default', 'flows').then((l) => l.find((p) => p.pr === 1)),
      { what: 'the stored preview of request 1' },
    );
    expect(copy).toMatchObject({ sha, state: 'success', commentId: restored?.commentId });
  });

  it('never takes a look-alike comment with its marker for its own: it neither edits it nor skips the head', async () => {
    const sha = await pushPullRequest(repo, main, 'refs/pull/21/head', {
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.27', 4),
    });
    // Someone else's comment, posted first, claiming this head was previewed and all is well.
    const fake = `${MARKER}\n### FlowOps preview of \`default/flows\` at \`${sha.slice(0, 12)}\`\n\nall good`;
    github.addComments(21, [fake]);
    github.openPull(21, sha);
    const [outcome] = await previewer.previewSource(await source(), 21);
    expect(github.errors).toEqual([]);
    expect(outcome).toMatchObject({ pr: 21, sha, state: 'success' });
    const [theirs, ours, ...more] = github.comments(21);
    expect(more).toEqual([]);
    expect(theirs?.body).toBe(fake);
    expect(ours?.id).toBe(outcome?.commentId);
    expect(ours?.body).toContain('| changed | Deployment default/web | `spec.replicas` |');
    expect(finalStatus(sha)).toMatchObject({ state: 'success' });
  });

  it("renders a new Flow's children for the watched objects there, its script stubbed, Secrets masked", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'flowops-preview-marker-')), 'script-ran');
    const password = 'smtp-secret-live-4242';
    // The watched kind's CRD is the server's only: the render brings it from live.
    await env.kube.apply(storeCrd(), { fieldManager: 'test', force: true });
    const store = { apiVersion: 'example.com/v1', kind: 'Store', namespace: 'default', name: 'mailer' };
    const served = async (): Promise<boolean> =>
      (await env.kube.list(store.apiVersion, store.kind).catch(() => undefined)) !== undefined;
    await waitFor(served, { what: 'the Store kind to be served' });
    await env.kube.create({
      apiVersion: store.apiVersion,
      kind: store.kind,
      metadata: { name: 'mailer', namespace: 'default', labels: { app: 'mailer' } },
      spec: { engine: 'postgres', storage: { size: '1Gi' }, backup: password },
    });
    const sha = await pushPullRequest(repo, main, 'refs/pull/7/head', {
      'flows/mailer.yaml': scriptedFlow('mailer', 'mailer:2.0', marker),
    });
    github.openPull(7, sha);
    const [outcome] = await previewer.previewSource(await source(), 7);
    expect(github.errors).toEqual([]);
    expect(outcome).toMatchObject({ pr: 7, sha, state: 'success' });
    const body = github.comments(7)[0]!.body;
    expect(body).toContain('| created | Flow default/mailer |');
    expect(body).toContain('#### What the changed Flows would create');
    expect(body).toContain(
      '- `Store default/mailer` (Flow `mailer`): `Deployment default/mailer`, `Secret default/mailer-smtp`',
    );
    const rendered = body.slice(body.indexOf('<details><summary>Rendered children</summary>'));
    expect(rendered).toMatch(/^\s+image: mailer:2\.0$/m);
    expect(rendered).toMatch(/^\s+password: <masked>$/m);
    expect(body).not.toContain(password);
    expect(body).not.toContain(b64(password));
    // The script step was stubbed: it never ran, here or in the render.
    expect(existsSync(marker)).toBe(false);
    // Nothing applied to the cluster: the Flow and its children exist only in the render.
    const flow = { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: 'mailer' };
    expect(await env.kube.get(flow)).toBeUndefined();
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'mailer' };
    expect(await env.kube.get(deployment)).toBeUndefined();
  }, 120_000);

  it('comments file:line:column for a bad Flow and sets failure', async () => {
    const sha = await pushPullRequest(repo, main, 'refs/pull/2/head', {
      'flows/broken.yaml': imageFlow('broken', 'nginx:1.28').replace('type: kubectl', 'type: kubectll'),
    });
    github.openPull(2, sha);
    const outcomes = await previewer.previewSource(await source());
    expect(github.errors).toEqual([]);
    expect(outcomes.map((o) => o.pr)).toEqual([2]);
    const body = github.comments(2)[0]!.body;
    expect(body).toContain('❌ **Rejected**: 1 error(s)');
    expect(body).toMatch(/flows\/broken\.yaml:\d+:\d+: spec\.reconcile\.steps\[0\]\.type: /);
    const final = finalStatus(sha);
    expect(final?.state).toBe('failure');
    expect(final?.description).toMatch(/^rejected: flows\/broken\.yaml:\d+:\d+: spec\.reconcile\.steps\[0\]\.type/);
  });

  it('comments a type error against a CRD only the server has (the repository does not carry it)', async () => {
    await env.kube.apply(storeCrd(), { fieldManager: 'test', force: true });
    const flow = `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: store-config }
spec:
  watch: { apiVersion: example.com/v1, kind: Store }
  reconcile:
    steps:
      - name: config
        type: script
        script: echo "{{ .Resource.spec.replica }}"
`;
    const sha = await pushPullRequest(repo, main, 'refs/pull/6/head', { 'flows/store.yaml': flow });
    github.openPull(6, sha);
    await previewer.previewSource(await source(), 6);
    expect(github.errors).toEqual([]);
    expect(github.comments(6)[0]!.body).toContain(
      'flows/store.yaml:10:26: spec.reconcile.steps[0].script: unknown field "spec.replica" in Store; ' +
        'did you mean "replicas"?',
    );
    expect(finalStatus(sha)?.state).toBe('failure');
  });

  it("shows which of a Secret's keys change, never a value", async () => {
    const sha = await pushPullRequest(repo, main, 'refs/pull/3/head', {
      'objects/db.yaml': secretYaml('db', 'new-password-1111'),
      'objects/api.yaml': secretYaml('api', 'brand-new-2222'),
    });
    github.openPull(3, sha);
    await previewer.previewSource(await source(), 3);
    expect(github.errors).toEqual([]);
    const body = github.comments(3)[0]!.body;
    expect(body).toContain('| changed | Secret default/db | `data.password`, `data.username` |');
    expect(body).toContain('| created | Secret default/api |');
    expect(body).toContain('<masked: changed>');
    for (const value of ['old-password-0000', 'new-password-1111', 'brand-new-2222'])
      for (const form of [value, b64(value), b64(`admin-${value}`)]) expect(body).not.toContain(form);
    // Nor the token, anywhere.
    for (const text of [captured.lines.join(''), ...[1, 2, 3].flatMap((n) => github.comments(n).map((c) => c.body))])
      expect(text).not.toContain(TOKEN);
  });

  it('finds its comment on a later page of a busy pull request and edits it there', async () => {
    github.addComments(
      5,
      Array.from({ length: 120 }, (_, i) => `LGTM ${i}`),
    );
    const first = await pushPullRequest(repo, main, 'refs/pull/5/head', {
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.27', 2),
    });
    github.openPull(5, first);
    await previewer.previewSource(await source(), 5);
    const ours = github.comments(5).at(-1)!;
    expect(github.comments(5)).toHaveLength(121);
    const second = await pushPullRequest(repo, main, 'refs/pull/5/head', {
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.27', 4),
    });
    github.openPull(5, second);
    const [outcome] = await previewer.previewSource(await source(), 5);
    expect(github.errors).toEqual([]);
    expect(outcome).toMatchObject({ pr: 5, sha: second, commentId: ours.id });
    expect(github.comments(5)).toHaveLength(121);
    expect(github.comments(5).at(-1)!.body).toContain(`at \`${second.slice(0, 12)}\``);
  });

  it('`flowops preview --pr N` previews one pull request now and says what it found', async () => {
    const sha = await pushPullRequest(repo, main, 'refs/pull/4/head', {
      'objects/web.yaml': deploymentYaml('web', 'nginx:1.27', 5),
    });
    github.openPull(4, sha);
    const cli = runFlowops(['preview', '--source', 'default/flows', '--pr', '4', '--kubeconfig', env.ts.kubeconfig]);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout()).toBe(
      `#4\t${sha.slice(0, 12)}\tsuccess\tpreview: 1 changed, 0 created, 0 pruned; nothing applied\n`,
    );
    expect(github.comments(4)[0]?.body).toContain('| changed | Deployment default/web | `spec.replicas` |');
    expect(github.errors).toEqual([]);
    const bad = runFlowops(['preview', '--pr', 'x', '--kubeconfig', env.ts.kubeconfig]);
    expect((await bad.exited).code).not.toBe(0);
    expect(bad.stderr()).toContain('--pr: expected a pull request number, got "x"');
    // Two CLI starts: through tsx when dist/ is older than src/, which a loaded machine makes slow.
  }, 120_000);

  it.skipIf(!haveSops)('decrypts a SOPS Secret of the head in memory for the dry run, and shows no value', async () => {
    const identity = await generateIdentity();
    const password = 'sops-preview-password-7777';
    const work = mkdtempSync(join(tmpdir(), 'flowops-preview-sops-'));
    writeFileSync(join(work, 'plain.yaml'), secretYaml('sops-creds', password));
    const encrypted = execFileSync(
      SOPS,
      [
        ...['--encrypt', '--age', await identityToRecipient(identity), '--encrypted-regex', '^(data|stringData)$'],
        ...['--input-type', 'yaml', '--output-type', 'yaml', join(work, 'plain.yaml')],
      ],
      { encoding: 'utf8', env: { ...process.env, SOPS_AGE_KEY_FILE: '/nonexistent' } },
    );
    expect(encrypted).not.toContain(password);
    await env.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sops-keys', namespace: 'default' },
      data: { 'flux.agekey': b64(`${identity}\n`) },
    } as KubeObject);
    const decryption = { provider: 'sops', secretRef: { name: 'sops-keys' } };
    await env.kube.patch(SOURCE, { spec: { decryption } }, 'merge');
    const sha = await pushPullRequest(repo, main, 'refs/pull/9/head', { 'objects/sops.yaml': encrypted });
    github.openPull(9, sha);
    const [outcome] = await previewer.previewSource(await source(), 9);
    expect(github.errors).toEqual([]);
    // Decrypted, the Secret is valid and dry-runs; encrypted, the server would refuse ENC[…] as base64 data.
    expect(outcome).toMatchObject({ pr: 9, sha, state: 'success' });
    const body = github.comments(9)[0]!.body;
    expect(body).toContain('| created | Secret default/sops-creds |');
    expect(body).toMatch(/^\+\s+password: <masked>$/m);
    for (const form of [password, b64(password), `admin-${password}`]) expect(body).not.toContain(form);
    expect(body).not.toContain('ENC[AES256_GCM');
    const live = { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'sops-creds' };
    expect(await env.kube.get(live)).toBeUndefined();
  });

  it('a forge that refuses the token: the pass fails naming the provider and the status, never the token', async () => {
    await env.kube.create(secret('wrong-token', { token: 'ghp_wrong-token-9876543210' }));
    await env.kube.patch(
      { apiVersion: 'flowops.io/v1', kind: 'Provider', namespace: 'default', name: 'github' },
      { spec: { secretRef: { name: 'wrong-token' } } },
      'merge',
    );
    const before = github.errors.length;
    const failed = await previewer.previewSource(await source()).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'NotifyError', code: 'Unauthorized', message: 'provider github: HTTP 401' });
    expect(github.errors.slice(before)).toEqual(['get /repos/{owner}/{repo}/pulls: no or wrong authorization header']);
    github.errors.splice(before);
    expect(JSON.stringify(failed) + String(failed)).not.toContain('ghp_wrong-token');
  });
});
