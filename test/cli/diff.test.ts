import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { Condition } from '../../src/kube/types.js';
import { ROOT, runFlowops, serverUrlOf, type CliProcess } from '../helpers/cli.js';
import { git } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';

// `flowops diff` as an operator author runs it before a push: against a running `flowops up`
// (spawned, its FlowSource default/flows synced from repos-example), with an edited copy of
// repos-example, as a folder and as a commit.

const changedLines = (diff: string): string[] => diff.split('\n').filter((l) => /^[-+][^-+]/.test(l));

describe('flowops diff against flowops up', () => {
  let dir: string;
  let kubeconfig: string;
  let up: CliProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flowops-diff-'));
    kubeconfig = join(dir, 'kubeconfig');
    up = runFlowops(['up', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--kubeconfig', kubeconfig], {
      FLOWOPS_LOG_LEVEL: 'warn',
    });
    await serverUrlOf(up);
    const kube = KubeClient.fromKubeconfig(kubeconfig);
    await waitFor(
      async () =>
        (
          (await kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace: 'default', name: 'flows' }))
            ?.status as { lastAppliedRevision?: string } | undefined
        )?.lastAppliedRevision,
      { what: 'repos-example synced', timeoutMs: 30_000 },
    );
    // The Flows have run once (inventories written): what the diff reads is what a push would meet.
    for (const [kind, name] of [
      ['Database', 'my-postgres'],
      ['WebApp', 'shop'],
      ['ConfigBundle', 'payments'],
    ] as const) {
      await waitFor(
        async () =>
          (
            (await kube.get({ apiVersion: 'example.com/v1', kind, namespace: 'default', name }))?.status as
              | { conditions?: Condition[] }
              | undefined
          )?.conditions?.some((c) => c.type === 'Ready'),
        { what: `${kind} ${name} reconciled`, timeoutMs: 30_000 },
      );
    }
  }, 90_000);

  afterAll(async () => {
    up.child.kill('SIGTERM');
    await up.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  const copyOfExamples = (): string => {
    const copy = mkdtempSync(join(dir, 'copy-'));
    cpSync(join(ROOT, 'repos-example'), copy, { recursive: true });
    return copy;
  };
  const edit = (file: string, from: string, to: string): void =>
    writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
  async function diff(args: string[], cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const p = runFlowops(['diff', '--kubeconfig', kubeconfig, ...args], {}, cwd);
    const { code } = await p.exited;
    return { code, stdout: p.stdout(), stderr: p.stderr() };
  }

  it('exits 0 with no output when the folder is what is live', async () => {
    const r = await diff([copyOfExamples()]);
    expect(r.stderr).toContain('no changes against FlowSource default/flows');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('shows exactly the changed field as a unified diff and exits 1', async () => {
    const copy = copyOfExamples();
    edit(join(copy, 'samples/my-postgres.yaml'), 'replicas: 3', 'replicas: 4');
    const r = await diff([copy]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('--- a/Database default/my-postgres (live)\n+++ b/Database default/my-postgres (');
    expect(changedLines(r.stdout)).toEqual(['-  replicas: 3', '+  replicas: 4']);
    expect(r.stderr).toContain('1 changed, 0 created, 0 pruned');
  });

  it('reads a commit with --commit and lists what a prune would delete', async () => {
    const copy = copyOfExamples();
    git(copy, 'init', '-q');
    git(copy, 'add', '-A');
    git(copy, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-qm', 'as live');
    rmSync(join(copy, 'samples/webapp.yaml'));
    edit(join(copy, 'webapp-operator/chart/values.yaml'), 'replicas', 'replicas'); // an input, not a definition
    git(copy, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-qam', 'drop the shop');
    const r = await diff(['--commit', 'HEAD'], copy);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('--- a/WebApp default/shop (live)\n+++ b/WebApp default/shop (pruned)');
    expect(r.stdout).toContain('-  image: nginx:1.27');
    expect(r.stderr).toContain('0 changed, 0 created, 1 pruned');
    // The commit before it is what is live.
    expect((await diff(['--commit', 'HEAD~1'], copy)).code).toBe(0);
  });

  it('shows a new CRD and an object of its kind as created (the kind cannot be dry-run before its CRD exists)', async () => {
    const copy = copyOfExamples();
    const crd = readFileSync(join(copy, 'database-operator/crd.yaml'), 'utf8')
      .replaceAll('databases', 'caches')
      .replaceAll('Database', 'Cache')
      .replaceAll('database', 'cache');
    writeFileSync(join(copy, 'cache-crd.yaml'), crd);
    writeFileSync(
      join(copy, 'samples/cache.yaml'),
      'apiVersion: example.com/v1\nkind: Cache\nmetadata:\n  name: sessions\nspec:\n  engine: redis\n  replicas: 1\n',
    );
    const r = await diff([copy]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('--- a/CustomResourceDefinition caches.example.com (live)');
    expect(r.stdout).toContain('--- a/Cache default/sessions (live)');
    expect(r.stdout).toContain('+  engine: redis');
    expect(r.stderr).toContain('0 changed, 2 created, 0 pruned');
  });

  it('rejects an invalid Flow with file:line and exit 2, as the sync would reject the commit', async () => {
    const copy = copyOfExamples();
    const flow = join(copy, 'database-operator/flow.yaml');
    edit(
      flow,
      '        type: kubectl\n        action: apply\n        manifests',
      '        type: kubectll\n        action: apply\n        manifests',
    );
    const r = await diff([copy]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${flow}:13: spec.reconcile.steps[0].type: unknown step type "kubectll"`);
    expect(r.stderr).toContain('rejected as a whole');
    expect(r.stdout).toBe('');
  });

  it("rejects a type error at file:line:column, the watched kind's schema read from the server's CRD", async () => {
    const copy = copyOfExamples();
    const flow = join(copy, 'database-operator/flow.yaml');
    // The folder no longer carries the Database CRD: its schema is the one the cluster serves.
    rmSync(join(copy, 'database-operator/crd.yaml'));
    edit(flow, '.Resource.spec.replicas }}', '.Resource.spec.replica }}');
    const lines = readFileSync(flow, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('.Resource.spec.replica }}')) + 1;
    const r = await diff([copy]);
    expect(r.code).toBe(2);
    const found = r.stderr.split('\n').find((l) => l.startsWith(`${flow}:${line}:`));
    expect(found).toMatch(/:\d+: spec\.reconcile\.steps\[0\]\.manifests: unknown field "spec\.replica" in Database/);
    expect(found).toContain('did you mean "replicas"?');
    expect(r.stdout).toBe('');
  });
});
