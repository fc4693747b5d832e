import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_REQUEST_ANNOTATION } from '../../src/api/reconcile-request.js';
import type { KubeObject } from '../../src/kube/types.js';
import { uiRoute } from '../../src/ui-server/route.js';
import type { SourceDetail } from '../../src/ui-server/types.js';
import { runFlowops } from '../helpers/cli.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { gitAsync, startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { keyring, unsigned, type Keyring, type SigningKey } from '../helpers/signing.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, flowNames, flowSource, flowYaml, ready, sourceStatus, type SourceStatus } from './fixtures.js';

type Status = SourceStatus & {
  lastVerifiedCommit?: string;
  history?: Array<{ revision: string; outcome: string; message?: string; signer?: string }>;
};

const keySecret = (name: string, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'default' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

/**
 * spec.verify against signatures made by the real git with the real gpg and ssh-keygen: what a
 * trusted key signed is applied; unsigned, untrusted, tampered and expired-key commits are
 * refused while the last verified commit keeps running.
 */
describe('FlowSource spec.verify: only commits signed by a trusted key are applied', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let keys: Keyring;
  let alice: SigningKey;
  let bob: SigningKey;
  let old: SigningKey;
  let ssh: SigningKey;
  let logs = '';
  let webView = '';

  beforeAll(async () => {
    const sink = new Writable({
      write: (chunk: Buffer, _e, cb) => {
        logs += chunk.toString();
        cb();
      },
    });
    env = await startFlowOps({
      log: pino({ level: 'debug' }, sink),
      sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) },
    });
    gitServer = await startGitServer();
    keys = keyring();
    alice = keys.gpgKey('Alice');
    bob = keys.gpgKey('Bob');
    // Made and used two years ago with a one-year lifetime: expired now.
    const past = new Date(Date.now() - 2 * 365 * 86_400_000).toISOString().replace(/[-:]/g, '').slice(0, 15);
    old = keys.gpgKey('Old', { expire: '1y', fakedTime: past });
    ssh = keys.sshKey('carol@example.com');
    await env.kube.create(
      keySecret('trusted', { 'alice.asc': alice.trusted, 'old.asc': old.trusted, allowed_signers: `${ssh.trusted}\n` }),
    );
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
    keys?.stop();
  });

  const sync = (name: string): void => env.controllers.sources!.trigger('default', name);
  const status = async (name: string): Promise<Status> => (await sourceStatus(env.kube, name)) as Status;

  /** Requests a reconcile and waits until it has been answered (whatever its outcome). */
  async function reconcileAndWait(name: string): Promise<void> {
    const at = new Date().toISOString();
    await env.kube.patch(
      { apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name },
      { metadata: { annotations: { [RECONCILE_REQUEST_ANNOTATION]: at } } },
      'merge',
    );
    sync(name);
    await waitFor(
      async () =>
        ((await sourceStatus(env.kube, name)) as { lastHandledReconcileAt?: string }).lastHandledReconcileAt === at,
      { what: `${name} to answer ${at}` },
    );
  }

  async function verificationEvents(name: string): Promise<Array<{ reason?: string; message?: string }>> {
    const events = await env.kube.list('v1', 'Event', {
      namespace: 'default',
      fieldSelector: `involvedObject.name=${name}`,
    });
    return (events.items as Array<KubeObject & { reason?: string; message?: string }>).filter(
      (e) => e.reason === 'VerificationFailed',
    );
  }

  describe('OpenPGP (gpg), mode head', () => {
    let repo: TestRepo;
    let good = '';

    beforeAll(() => {
      repo = gitServer.repo('gpg');
    });

    it('applies a commit signed by a trusted key and names its signer', async () => {
      alice.configure(repo.git);
      good = await repo.commit({ 'a.yaml': flowYaml('alpha') });
      expect(repo.git('cat-file', 'commit', good)).toContain('-----BEGIN PGP SIGNATURE-----');
      await env.kube.create(flowSource('gpg', repo.url, { verify: { secretRef: { name: 'trusted' } } }));
      const s = (await attempted(env.kube, 'gpg', good)) as Status;
      expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
      expect(s.lastVerifiedCommit).toBe(good);
      expect(s.history?.[0]).toMatchObject({
        outcome: 'Applied',
        signer: expect.stringMatching(/^OpenPGP key [0-9A-F]{40} \(Alice <alice@example\.com>\)$/),
      });
      expect(s.conditions?.find((c) => c.type === 'SourceVerified')).toMatchObject({
        status: 'True',
        reason: 'Succeeded',
      });
      expect(await flowNames(env.kube)).toContain('alpha');
    });

    it('refuses an unsigned commit with one Event, and the last verified commit keeps running', async () => {
      unsigned(repo.git);
      const bad = await repo.commit({ 'a.yaml': flowYaml('alpha', 'v2'), 'evil.yaml': flowYaml('evil') });
      sync('gpg');
      const s = (await attempted(env.kube, 'gpg', bad)) as Status;
      expect(ready(s)).toMatchObject({
        status: 'False',
        reason: 'VerificationFailed',
        message: `commit ${bad} refused: unsigned: it carries no signature`,
      });
      expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
      expect(s.history?.[0]).toMatchObject({ outcome: 'Refused', signer: 'unsigned' });
      expect(await flowNames(env.kube)).not.toContain('evil');
      const alpha = await env.kube.get({
        apiVersion: 'flowops.io/v1',
        kind: 'Flow',
        namespace: 'default',
        name: 'alpha',
      });
      expect(alpha?.metadata.annotations?.['flowops.io/revision']).toBe(`main@sha1:${good}`);
      expect(await verificationEvents('gpg')).toHaveLength(1);
      // Reconciled again with nothing new: still refused, no second Event.
      await reconcileAndWait('gpg');
      expect(ready(await status('gpg'))).toMatchObject({ status: 'False', reason: 'VerificationFailed' });
      expect(await verificationEvents('gpg')).toHaveLength(1);
    });

    it('refuses a commit signed by a key that is not trusted, naming the key', async () => {
      bob.configure(repo.git);
      const bad = await repo.commit({ 'evil.yaml': flowYaml('evil') });
      sync('gpg');
      const s = (await attempted(env.kube, 'gpg', bad)) as Status;
      expect(ready(s)?.message).toMatch(
        new RegExp(
          `^commit ${bad} refused: signed by OpenPGP key [0-9A-F]{16,40}: the key is not in the trusted keys$`,
        ),
      );
      expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
      expect(await flowNames(env.kube)).not.toContain('evil');
    });

    it('refuses a signature over a different tree (a tampered commit)', async () => {
      alice.configure(repo.git);
      const signed = await repo.commit({ 'b.yaml': flowYaml('beta') });
      // The same signed commit object with another tree in it: what a forged push would carry.
      const evilTree = repo.git('rev-parse', `${signed}~1^{tree}`);
      const raw = repo.git('cat-file', 'commit', signed).replace(/^tree [0-9a-f]{40}$/m, `tree ${evilTree}`);
      const tampered = await hashObject(repo, raw);
      await gitAsync(repo.work, 'push', '-q', '-f', 'origin', `${tampered}:refs/heads/main`);
      repo.git('reset', '-q', '--hard', tampered);
      sync('gpg');
      const s = (await attempted(env.kube, 'gpg', tampered)) as Status;
      expect(ready(s)?.message).toMatch(
        new RegExp(
          `^commit ${tampered} refused: signed by OpenPGP key [0-9A-F]{40} \\(Alice <alice@example.com>\\): ` +
            'the signature does not match',
        ),
      );
      expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
    });

    it('refuses a commit signed by an expired key', async () => {
      old.configure(repo.git);
      const bad = await repo.commit({ 'evil.yaml': flowYaml('evil') });
      sync('gpg');
      const s = (await attempted(env.kube, 'gpg', bad)) as Status;
      expect(ready(s)?.message).toMatch(
        new RegExp(
          `^commit ${bad} refused: signed by OpenPGP key [0-9A-F]{40} \\(Old <old@example.com>\\): the key expired on `,
        ),
      );
      expect(s.conditions?.find((c) => c.type === 'SourceVerified')).toMatchObject({
        status: 'False',
        reason: 'ExpiredKey',
      });
      expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
      expect(await flowNames(env.kube)).not.toContain('evil');
    });

    it('lists the refused commits in flowops history with their reason', async () => {
      const p = runFlowops(['history', 'gpg', '--kubeconfig', env.ts.kubeconfig], { FLOWOPS_LOG_LEVEL: 'warn' });
      expect((await p.exited).code).toBe(0);
      const lines = p.stdout().trimEnd().split('\n');
      expect(lines[0]).toMatch(/^\s+REVISION\s+TIME\s+OUTCOME\s+STATE\s+SIGNER\s+MESSAGE$/);
      expect(lines[1]).toMatch(
        new RegExp(
          String.raw`main@sha1:[0-9a-f]{40}\s+\S+\s+Refused\s+\S+\s+OpenPGP key [0-9A-F]{40} \(Old <old@example.com>\)\s+` +
            'commit [0-9a-f]{40} refused: ',
        ),
      );
      expect(p.stdout()).toMatch(/Refused\s+\S+\s+unsigned\s+commit [0-9a-f]{40} refused: unsigned/);
      expect(lines.find((l) => l.startsWith('*'))).toContain(`main@sha1:${good}`);
    });

    it('refuses a commit signed by a key revoked since', async () => {
      const dave = keys.gpgKey('Dave');
      dave.configure(repo.git);
      const bad = await repo.commit({ 'evil.yaml': flowYaml('evil') });
      const revoked = dave.revoke?.() ?? '';
      const data = { 'dave.asc': Buffer.from(revoked).toString('base64') };
      const trusted = { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'trusted' };
      await env.kube.patch(trusted, { data }, 'merge');
      sync('gpg');
      const s = (await attempted(env.kube, 'gpg', bad)) as Status;
      expect(ready(s)?.message).toMatch(
        new RegExp(
          `^commit ${bad} refused: signed by OpenPGP key [0-9A-F]{40} ` +
            '\\(Dave <dave@example.com>\\): the key is revoked$',
        ),
      );
      expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
      expect(await flowNames(env.kube)).not.toContain('evil');
    });

    it('applies the branch once its signer is trusted (the Secret is read again)', async () => {
      bob.configure(repo.git);
      const next = await repo.commit({ 'c.yaml': flowYaml('gamma') });
      sync('gpg');
      await attempted(env.kube, 'gpg', next);
      await env.kube.patch(
        { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'trusted' },
        { data: { 'bob.asc': Buffer.from(bob.trusted).toString('base64') } },
        'merge',
      );
      await reconcileAndWait('gpg');
      const s = await status('gpg');
      expect(s.lastAppliedRevision).toBe(`main@sha1:${next}`);
      expect(s.history?.[0]).toMatchObject({
        outcome: 'Applied',
        signer: expect.stringContaining('(Bob <bob@example.com>)'),
      });
      expect(await flowNames(env.kube)).toContain('gamma');
    });
  });

  describe('SSH (gpg.format=ssh), mode all', () => {
    let repo: TestRepo;
    let good = '';

    it('applies a commit signed with an allowed SSH key', async () => {
      repo = gitServer.repo('ssh');
      ssh.configure(repo.git);
      good = await repo.commit({ 'ssh.yaml': flowYaml('ssh-one') });
      expect(repo.git('cat-file', 'commit', good)).toContain('-----BEGIN SSH SIGNATURE-----');
      await env.kube.create(flowSource('ssh', repo.url, { verify: { mode: 'all', secretRef: { name: 'trusted' } } }));
      const s = (await attempted(env.kube, 'ssh', good)) as Status;
      expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
      expect(s.history?.[0]?.signer).toMatch(/^SSH key SHA256:[A-Za-z0-9+/]{43} \(carol@example\.com\)$/);
    });

    it('refuses a push whose middle commit is unsigned, naming that commit', async () => {
      await repo.commit({ 'ssh.yaml': flowYaml('ssh-one', 'v2') });
      unsigned(repo.git);
      repo.git('commit', '-q', '--allow-empty', '-m', 'unsigned in the middle');
      const middle = repo.git('rev-parse', 'HEAD');
      ssh.configure(repo.git);
      const tip = await repo.commit({ 'more.yaml': flowYaml('ssh-two') });
      sync('ssh');
      const s = (await attempted(env.kube, 'ssh', tip)) as Status;
      expect(ready(s)).toMatchObject({ status: 'False', reason: 'VerificationFailed' });
      expect(ready(s)?.message).toBe(
        `commit ${middle} refused: unsigned: it carries no signature; ${tip} and the commits before it are not applied`,
      );
      expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
      expect(s.lastVerifiedCommit).toBe(good);
      expect(await flowNames(env.kube)).not.toContain('ssh-two');
    });
  });

  describe('a source following a signed tag', () => {
    it('applies a tag signed by a trusted key and refuses a lightweight one', async () => {
      const repo = gitServer.repo('tags');
      unsigned(repo.git);
      const first = await repo.commit({ 'tag.yaml': flowYaml('tagged') });
      alice.configure(repo.git);
      repo.git('tag', '-s', '-m', 'release 1', 'v1', first);
      await gitAsync(repo.work, 'push', '-q', 'origin', 'v1');
      await env.kube.create(
        flowSource('tags', repo.url, { ref: { tag: 'v1' }, verify: { secretRef: { name: 'trusted' } } }),
      );
      const s = (await attempted(env.kube, 'tags', first).catch(async (e: unknown) => {
        throw new Error(`${String(e)}: ${JSON.stringify(await status('tags'))}`);
      })) as Status;
      expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
      expect(s.history?.[0]?.signer).toContain('Alice');

      unsigned(repo.git);
      const second = await repo.commit({ 'tag.yaml': flowYaml('tagged', 'v2') });
      repo.git('tag', 'v2', second);
      await gitAsync(repo.work, 'push', '-q', 'origin', 'v2');
      await env.kube.patch(
        { apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name: 'tags' },
        { spec: { ref: { tag: 'v2' } } },
        'merge',
      );
      const r = (await attempted(env.kube, 'tags', second)) as Status;
      expect(ready(r)?.message).toBe(
        `tag v2 (commit ${second}) refused: unsigned (a lightweight tag carries no signature; use git tag -s)`,
      );
      expect(r.lastAppliedRevision).toBe(`v1@sha1:${first}`);
    });
  });

  it('says which Secret is missing or holds no usable key', async () => {
    const repo = gitServer.repo('nokeys');
    await repo.commit({ 'x.yaml': flowYaml('nokeys') });
    await env.kube.create(keySecret('not-keys', { 'readme.txt': 'hello' }));
    await env.kube.create(flowSource('nokeys', repo.url, { verify: { secretRef: { name: 'not-keys' } } }));
    const s = await waitFor(
      async () => (ready(await status('nokeys'))?.reason === 'VerifyKeysInvalid' ? status('nokeys') : undefined),
      { what: 'VerifyKeysInvalid' },
    );
    expect(ready(s)?.message).toBe(
      'Secret default/not-keys (spec.verify.secretRef): no trusted keys: ' +
        'expected keys ending in .asc (armored OpenPGP public keys) or "allowed_signers"',
    );
    expect(await flowNames(env.kube)).not.toContain('nokeys');
  });

  it("shows the verification state and each commit's signer in the web view", async () => {
    const distDir = mkdtempSync(join(tmpdir(), 'ui-dist-'));
    const ui = uiRoute({ kube: env.kube, log: pino({ level: 'silent' }), distDir });
    env.ts.server.addRoute((req, res, url) => ui.handle(req, res, url));
    try {
      const res = await fetch(`${env.ts.server.url}/ui/api/sources/default/ssh`);
      expect(res.status).toBe(200);
      const d = (await res.json()) as SourceDetail;
      expect(d.verification).toMatchObject({ mode: 'all', state: { status: 'False', reason: 'Unsigned' } });
      expect(d.verification?.lastVerifiedCommit).toMatch(/^[0-9a-f]{40}$/);
      expect(d.history[0]).toMatchObject({ outcome: 'Refused', signer: 'unsigned' });
      expect(d.history[1]?.signer).toMatch(/^SSH key SHA256:\S+ \(carol@example\.com\)$/);
      const gpg = (await (await fetch(`${env.ts.server.url}/ui/api/sources/default/gpg`)).json()) as SourceDetail;
      expect(gpg.verification?.state).toMatchObject({ status: 'True', reason: 'Succeeded' });
      webView = JSON.stringify([d, gpg]);
    } finally {
      await ui.stop();
    }
  });

  it('puts no key material in any log, status or Event', async () => {
    const events = await env.kube.list('v1', 'Event', { namespace: 'default' });
    const sources = await env.kube.list('flowops.io/v1', 'FlowSource', { namespace: 'default' });
    expect(logs).toContain('revision refused');
    expect(webView).toContain('carol@example.com');
    for (const text of [logs, JSON.stringify(events.items), JSON.stringify(sources.items), webView]) {
      for (const key of [alice, bob, old, ssh]) {
        expect(text).not.toContain(key.material);
        expect(text).not.toContain(key.secret);
      }
    }
  });
});

async function hashObject(repo: TestRepo, raw: string): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  return execFileSync('git', ['-C', repo.work, 'hash-object', '-t', 'commit', '-w', '--stdin'], {
    input: `${raw}\n`,
    encoding: 'utf8',
  }).trim();
}
