// Signature verification benchmark (spec.verify): prints figures, asserts nothing.
//   npx tsx bench/verify.ts [--commits 100] [--files 1000] [--rounds 2] [--sops-files 1000]
// (FLOWOPS_SOPS or `sops` on PATH for part 3; --rounds 0 skips part 2)
// Signatures are made by the real git with gpg (OpenPGP) and ssh-keygen (gpg.format=ssh).
//  1. verification cost per commit (read the raw object, split the signature, verify), OpenPGP and
//     SSH, mode head and mode all over --commits commits, beside reading the same commits unverified;
//  2. one commit of --files Flows synced end to end (FlowSource created → applied), with spec.verify
//     and without, in the same run (two repositories with the same files, two namespaces);
//  3. SOPS decryption of a --sops-files commit of Secrets encrypted by the real sops (age), in
//     memory as the sync does it, beside the same pass over the same Secrets unencrypted.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import pino from 'pino';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { startApiServer } from '../src/apiserver/index.js';
import { sopsKeysFromSecretData } from '../src/source/sops/sops-keys.js';
import { decryptFiles } from '../src/sync/decrypt-files.js';
import { KubeClient } from '../src/kube/client.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import type { KubeObject } from '../src/kube/types.js';
import { startControllers } from '../src/runtime/controllers.js';
import { gitContext } from '../src/source/git-context.js';
import { trustedKeysFromSecretData, type TrustedKeys } from '../src/source/verify/trusted-keys.js';
import { verifyRevision } from '../src/source/verify/verify-revision.js';
import { startGitServer, type TestRepo } from '../test/helpers/git-server.js';
import { keyring, type SigningKey } from '../test/helpers/signing.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const COMMITS = arg('commits', 100);
const FILES = arg('files', 1000);
const ROUNDS = 50;
const E2E_ROUNDS = arg('rounds', 2);
const SOPS_FILES = arg('sops-files', 1000);
const SOPS = process.env.FLOWOPS_SOPS ?? 'sops';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number): string => `${x.toFixed(2)} ms`;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

const flowYaml = (name: string): string => `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: ${name}
spec:
  watch:
    apiVersion: bench.flowops.io/v1
    kind: Item
  reconcile:
    steps:
      - name: touch
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: "{{ .Resource.metadata.name }}-v1"
            namespace: "{{ .Resource.metadata.namespace }}"
`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function perCommit(label: string, repo: TestRepo, key: SigningKey, keys: TrustedKeys): Promise<void> {
  key.configure(repo.git);
  const first = await repo.commit({ 'a.yaml': 'a: 0\n' });
  for (let i = 1; i < COMMITS; i++) repo.git('commit', '-q', '--allow-empty', '-m', `c${i}`);
  const tip = await repo.commit({ 'a.yaml': 'a: 1\n' });
  const ctx = gitContext(repo.work);
  const read = async (oid: string): Promise<unknown> =>
    git.readObject({ fs: ctx.fs, gitdir: ctx.gitdir, oid, format: 'content', cache: ctx.cache });
  const head: number[] = [];
  const unverified: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    unverified.push(await timed(() => read(tip)));
    head.push(
      await timed(async () => {
        const v = await verifyRevision({ ctx, commit: tip, mode: 'head', keys });
        if (!v.ok) throw new Error(v.message);
      }),
    );
  }
  const all = await timed(async () => {
    const v = await verifyRevision({ ctx, commit: tip, mode: 'all', lastVerified: first, keys });
    if (!v.ok || v.checked !== COMMITS) throw new Error(v.ok ? `checked ${v.checked}` : v.message);
  });
  const log = await git.log({ fs: ctx.fs, gitdir: ctx.gitdir, ref: tip, depth: COMMITS });
  const readAll = await timed(async () => {
    for (const c of log) await read(c.oid);
  });
  process.stdout.write(
    `${label.padEnd(8)} mode head: ${ms(median(head))} per commit ` +
      `(reading it unverified: ${ms(median(unverified))}; median of ${ROUNDS})\n`,
  );
  process.stdout.write(
    `${label.padEnd(8)} mode all:  ${ms(all / COMMITS)} per commit over ${COMMITS} commits ` +
      `(${ms(all)} total; reading them unverified: ${ms(readAll)})\n`,
  );
}

async function appliedOrThrow(kube: KubeClient, ns: string, sha: string, mode: string): Promise<void> {
  for (const deadline = Date.now() + 1_200_000; ; ) {
    const src = await kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', name: 'many', namespace: ns });
    const status = src?.status as
      | { lastAppliedRevision?: string; history?: Array<{ outcome: string; message?: string }> }
      | undefined;
    if (status?.lastAppliedRevision?.endsWith(sha)) return;
    const last = status?.history?.[0];
    if (last && last.outcome !== 'Applied') throw new Error(`${mode}: ${last.outcome} ${last.message ?? ''}`);
    if (Date.now() > deadline) throw new Error(`${mode}: timed out`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sopsPhase(dir: string): Promise<void> {
  const identity = await generateIdentity();
  const recipient = await identityToRecipient(identity);
  const keys = await sopsKeysFromSecretData({ 'bench.agekey': b64(`${identity}\n`) });
  if (!keys.ok) throw new Error(keys.problems.join('; '));
  const plain: Array<{ path: string; text: string }> = [];
  const encrypted: Array<{ path: string; text: string }> = [];
  const t0 = performance.now();
  for (let i = 0; i < SOPS_FILES; i++) {
    const text =
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s-${i}\n` +
      `stringData:\n  password: pw-${i}\n  user: u-${i}\n`;
    const file = join(dir, `s-${i}.yaml`);
    writeFileSync(file, text);
    const args = ['--encrypt', '--age', recipient, '--encrypted-regex', '^(data|stringData)$', file];
    encrypted.push({ path: `secrets/s-${i}.yaml`, text: execFileSync(SOPS, args, { encoding: 'utf8' }) });
    plain.push({ path: `secrets/s-${i}.yaml`, text });
  }
  process.stdout.write(`\n(${SOPS_FILES} files encrypted by sops in ${(performance.now() - t0).toFixed(0)} ms)\n`);
  const rounds: Array<[number, number]> = [];
  for (let r = 0; r < 3; r++) {
    const p = await timed(() => decryptFiles(plain, keys.keys));
    const e = await timed(async () => {
      const out = await decryptFiles(encrypted, keys.keys);
      if (!out.ok) throw new Error(JSON.stringify(out.errors[0]));
    });
    rounds.push([p, e]);
  }
  const plainMs = median(rounds.map((x) => x[0]));
  const encMs = median(rounds.map((x) => x[1]));
  process.stdout.write(
    `SOPS: ${SOPS_FILES}-file commit decrypted in ${encMs.toFixed(0)} ms (${ms(encMs / SOPS_FILES)} per file); ` +
      `the same pass over the unencrypted files ${plainMs.toFixed(1)} ms (median of 3)\n`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-bench-verify-'));
  const ring = keyring();
  const gpgKey = ring.gpgKey('Bench');
  const sshKey = ring.sshKey('bench@example.com');
  const data = { 'bench.asc': b64(gpgKey.trusted), allowed_signers: b64(`${sshKey.trusted}\n`) };
  const trusted = await trustedKeysFromSecretData(data);
  if (!trusted.ok) throw new Error(trusted.problems.join('; '));
  const gitServer = await startGitServer();
  process.stdout.write(`verify bench: ${COMMITS} commits for mode all, ${FILES} Flows in one commit end to end\n\n`);

  await perCommit('OpenPGP', gitServer.repo('pgp'), gpgKey, trusted.keys);
  await perCommit('SSH', gitServer.repo('ssh'), sshKey, trusted.keys);

  if (SOPS_FILES > 0) await sopsPhase(mkdtempSync(join(tmpdir(), 'flowops-bench-sops-')));
  if (E2E_ROUNDS === 0) {
    await gitServer.stop();
    ring.stop();
    return;
  }
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  const controllers = await startControllers({
    kube,
    log: pino({ level: 'silent' }),
    installCrds: true,
    sources: { dataDir: join(dir, 'sources') },
  });
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`flows/f-${String(i).padStart(4, '0')}.yaml`] = flowYaml(`f-${i}`);
  // Alternating rounds, so that warm-up and a neighbour's load fall on both sides alike.
  const took: Record<string, number[]> = { 'without verify': [], 'with verify': [] };
  for (let round = 0; round < E2E_ROUNDS; round++) {
    for (const mode of ['without verify', 'with verify'] as const) {
      const ns = `${mode === 'with verify' ? 'verified' : 'plain'}-${round}`;
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const repo = gitServer.repo(`e2e-${ns}`);
      gpgKey.configure(repo.git);
      const sha = await repo.commit(files);
      await kube.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'keys', namespace: ns }, data });
      const verify = mode === 'with verify' ? { verify: { secretRef: { name: 'keys' } } } : {};
      const spec = { url: repo.url, ref: { branch: 'main' }, interval: '1h', ...verify };
      const t0 = performance.now();
      await kube.create({
        apiVersion: 'flowops.io/v1',
        kind: 'FlowSource',
        metadata: { name: 'many', namespace: ns },
        spec,
      } as KubeObject);
      await appliedOrThrow(kube, ns, sha, mode);
      took[mode]?.push(performance.now() - t0);
      process.stdout.write(`  round ${round + 1} ${mode}: ${(performance.now() - t0).toFixed(0)} ms\n`);
    }
  }
  const results = Object.entries(took).map(
    ([mode, xs]) =>
      `${FILES} Flows in one commit, FlowSource created → applied, ${mode.padEnd(14)}: ` +
      `${xs.map((x) => `${x.toFixed(0)} ms`).join(', ')} (rounds)`,
  );
  process.stdout.write(`\n${results.join('\n')}\n`);
  await controllers.stop();
  await server.close();
  await gitServer.stop();
  ring.stop();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
