// Signature verification benchmark (spec.verify): prints figures, asserts nothing.
//   npx tsx bench/verify.ts [--commits 100] [--files 1000] [--rounds 2]
// Signatures are made by the real git with gpg (OpenPGP) and ssh-keygen (gpg.format=ssh).
//  1. verification cost per commit (read the raw object, split the signature, verify), OpenPGP and
//     SSH, mode head and mode all over --commits commits, beside reading the same commits unverified;
//  2. one commit of --files Flows synced end to end (FlowSource created → applied), with spec.verify
//     and without, in the same run (two repositories with the same files, two namespaces).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import pino from 'pino';
import { startApiServer } from '../src/apiserver/index.js';
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
    `${label.padEnd(8)} mode head: ${ms(median(head))} per commit (reading it unverified: ${ms(median(unverified))}; median of ${ROUNDS})\n`,
  );
  process.stdout.write(
    `${label.padEnd(8)} mode all:  ${ms(all / COMMITS)} per commit over ${COMMITS} commits (${ms(all)} total; reading them unverified: ${ms(readAll)})\n`,
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
      `${FILES} Flows in one commit, FlowSource created → applied, ${mode.padEnd(14)}: ${xs.map((x) => `${x.toFixed(0)} ms`).join(', ')} (rounds)`,
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
