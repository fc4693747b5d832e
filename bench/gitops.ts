// GitOps benchmark: prints figures, asserts nothing.
//   npx tsx bench/gitops.ts [--pushes 30] [--flows 1000] [--files 2000]
// One process, as `flowops up` runs it: the embedded API server, the Flow controllers, the
// FlowSource controller, and a real Git smart-HTTP server (git http-backend) on 127.0.0.1.
//  1. push → Flow CR updated, p50/p99, via webhook (GitHub-signed POST /hooks/...) and via polling (interval 1s);
//  2. 1,000 Flows in one commit → all applied and Ready (goal ≤ 20 s on 2 cores);
//  3. diff time (isomorphic-git, pruned tree recursion) vs `git diff --name-only` on a 2,000-file repo (goal ≤ 1.5×).
import { execFile, execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { startApiServer } from '../src/apiserver/index.js';
import { KubeClient } from '../src/kube/client.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import type { KubeObject } from '../src/kube/types.js';
import { startControllers } from '../src/runtime/controllers.js';
import { diffCommits } from '../src/source/diff.js';
import { gitContext } from '../src/source/git-context.js';
import { webhookReceiver } from '../src/source/webhook-receiver.js';
import { startGitServer } from '../test/helpers/git-server.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const PUSHES = arg('pushes', 30);
const FLOWS = arg('flows', 1000);
const FILES = arg('files', 2000);
const TOKEN = 'bench-token';

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const median = (xs: number[]): number => pct(xs, 50);
const ms = (x: number): string => `${x.toFixed(1)} ms`;

const flowYaml = (name: string, marker: string): string => `apiVersion: flowops.io/v1
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
            name: "{{ .Resource.metadata.name }}-${marker}"
            namespace: "{{ .Resource.metadata.namespace }}"
`;

const CRD_YAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: items.bench.flowops.io
spec:
  group: bench.flowops.io
  scope: Namespaced
  names: { kind: Item, listKind: ItemList, plural: items, singular: item }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;

async function until(check: () => Promise<boolean>, timeoutMs = 120_000, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-bench-gitops-'));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  const log = pino({ level: process.env.FLOWOPS_BENCH_LOG ?? 'silent' });
  const controllers = await startControllers({
    kube,
    log,
    installCrds: true,
    sources: { dataDir: join(dir, 'sources') },
  });
  server.addRoute(webhookReceiver({ kube, log, trigger: (ns, n) => controllers.sources!.trigger(ns, n) }));
  const gitServer = await startGitServer();
  await kube.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'hook', namespace: 'default' },
    data: { token: Buffer.from(TOKEN).toString('base64') },
  });
  const revisionOf = async (name: string): Promise<string | undefined> =>
    (await kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', name, namespace: 'default' }))?.metadata.annotations?.[
      'flowops.io/revision'
    ];
  process.stdout.write(
    `gitops bench: ${PUSHES} pushes per mode, ${FLOWS} Flows in one commit, diff over ${FILES} files\n\n`,
  );

  // 1. push → Flow CR updated.
  for (const mode of ['webhook', 'polling'] as const) {
    const repo = gitServer.repo(`latency-${mode}`);
    const first = await repo.commit({ 'crd.yaml': CRD_YAML, 'flow.yaml': flowYaml(`lat-${mode}`, 'v0') });
    await kube.create({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      metadata: { name: `lat-${mode}`, namespace: 'default' },
      spec: {
        url: repo.url,
        ref: { branch: 'main' },
        interval: mode === 'webhook' ? '1h' : '1s',
        webhookSecretRef: { name: 'hook' },
      },
    } as KubeObject);
    await until(async () => (await revisionOf(`lat-${mode}`))?.endsWith(first) ?? false);
    const samples: number[] = [];
    for (let i = 1; i <= PUSHES; i++) {
      const sha = await repo.commit({ 'flow.yaml': flowYaml(`lat-${mode}`, `v${i}`) });
      const t0 = performance.now();
      if (mode === 'webhook') {
        const body = JSON.stringify({ ref: 'refs/heads/main', after: sha });
        const res = await fetch(`${server.url}/hooks/default/lat-${mode}`, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'push',
            'x-hub-signature-256': `sha256=${createHmac('sha256', TOKEN).update(body).digest('hex')}`,
          },
        });
        if (res.status !== 202) throw new Error(`webhook: HTTP ${res.status}`);
      }
      await until(async () => (await revisionOf(`lat-${mode}`))?.endsWith(sha) ?? false);
      samples.push(performance.now() - t0);
    }
    process.stdout.write(
      `push → Flow updated via ${mode.padEnd(7)}  p50 ${ms(median(samples))}  p99 ${ms(pct(samples, 99))}  (n=${samples.length}${mode === 'polling' ? ', interval 1s ±10%' : ''})\n`,
    );
  }

  // 2. 1,000 Flows in one commit → all applied and Ready.
  const big = gitServer.repo('many');
  const files: Record<string, string> = { 'crd.yaml': CRD_YAML };
  for (let i = 0; i < FLOWS; i++) files[`flows/f-${String(i).padStart(4, '0')}.yaml`] = flowYaml(`many-${i}`, 'v1');
  const sha = await big.commit(files);
  const t0 = performance.now();
  await kube.create({
    apiVersion: 'flowops.io/v1',
    kind: 'FlowSource',
    metadata: { name: 'many', namespace: 'default' },
    spec: { url: big.url, ref: { branch: 'main' }, interval: '1h' },
  } as KubeObject);
  let appliedAt = 0;
  await until(
    async () => {
      const src = await kube.get({
        apiVersion: 'flowops.io/v1',
        kind: 'FlowSource',
        name: 'many',
        namespace: 'default',
      });
      const ok = ((src?.status as { lastAppliedRevision?: string } | undefined)?.lastAppliedRevision ?? '').endsWith(
        sha,
      );
      if (ok && !appliedAt) appliedAt = performance.now();
      if (process.env.FLOWOPS_BENCH_DEBUG) process.stderr.write(`${JSON.stringify(src?.status ?? {}).slice(0, 400)}\n`);
      if (
        !ok &&
        (src?.status as { history?: Array<{ outcome: string; message?: string }> } | undefined)?.history?.[0]
          ?.outcome === 'Rejected'
      )
        throw new Error(JSON.stringify(src?.status));
      return ok;
    },
    300_000,
    50,
  );
  await until(
    async () => {
      const { items } = await kube.list('flowops.io/v1', 'Flow', { namespace: 'default' });
      const ready = items.filter(
        (f) =>
          f.metadata.name!.startsWith('many-') &&
          ((f.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some(
            (c) => c.type === 'Ready' && c.status === 'True',
          ),
      );
      return ready.length === FLOWS;
    },
    300_000,
    200,
  );
  const readyAt = performance.now();
  process.stdout.write(
    `${FLOWS} Flows in one commit: applied in ${((appliedAt - t0) / 1000).toFixed(2)} s, all Ready in ${((readyAt - t0) / 1000).toFixed(2)} s (goal ≤ 20 s)\n`,
  );

  await controllers.stop();
  await server.close();
  await gitServer.stop();

  // 3. diff time vs the git CLI on a 2,000-file repository, a three-file commit.
  const repoDir = mkdtempSync(join(tmpdir(), 'flowops-bench-diff-'));
  const g = (...a: string[]): string =>
    execFileSync('git', ['-C', repoDir, '-c', 'user.name=b', '-c', 'user.email=b@e', ...a], {
      encoding: 'utf8',
    }).trim();
  g('init', '-q', '-b', 'main');
  for (let i = 0; i < FILES; i++) {
    const p = join(
      repoDir,
      i < FILES * 0.8 ? `flows/team-${String(i % 40).padStart(2, '0')}/flow-${i}.yaml` : `other/o-${i}.yaml`,
    );
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, flowYaml(`f${i}`, 'v1'));
  }
  g('add', '-A');
  g('commit', '-qm', 'root');
  const a = g('rev-parse', 'HEAD');
  for (const i of [3, 517, 1201])
    writeFileSync(
      join(repoDir, `flows/team-${String(i % 40).padStart(2, '0')}/flow-${i}.yaml`),
      flowYaml(`f${i}`, 'v2'),
    );
  g('commit', '-qam', 'three');
  const b = g('rev-parse', 'HEAD');
  g('gc', '-q');
  const run = promisify(execFile);
  const cli: number[] = [];
  const iso: number[] = [];
  const isoCold: number[] = [];
  for (let r = 0; r < 25; r++) {
    let t = performance.now();
    await run('git', ['-C', repoDir, 'diff', '--name-only', a, b, '--', 'flows']);
    cli.push(performance.now() - t);
    t = performance.now();
    await diffCommits({ ctx: gitContext(repoDir), from: a, to: b, path: 'flows' });
    isoCold.push(performance.now() - t);
  }
  const warm = gitContext(repoDir);
  await diffCommits({ ctx: warm, from: a, to: b, path: 'flows' });
  for (let r = 0; r < 25; r++) {
    const t = performance.now();
    const changes = await diffCommits({ ctx: warm, from: a, to: b, path: 'flows' });
    iso.push(performance.now() - t);
    if (changes.length !== 3) throw new Error(`expected 3 changes, got ${changes.length}`);
  }
  process.stdout.write(
    `diff of a 3-file commit in a ${FILES}-file repo: git diff --name-only ${ms(median(cli))}, isomorphic-git ${ms(median(isoCold))} fresh cache (${(median(isoCold) / median(cli)).toFixed(2)}×), ${ms(median(iso))} warm cache (${(median(iso) / median(cli)).toFixed(2)}×) (goal ≤ 1.5×)\n`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
