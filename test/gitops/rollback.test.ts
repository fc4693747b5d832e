import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowops } from '../helpers/cli.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { attempted, flowNames, flowSource, flowYaml, sourceStatus } from './fixtures.js';

async function flowops(
  args: string[],
  kubeconfig: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runFlowops([...args, '--kubeconfig', kubeconfig], { FLOWOPS_LOG_LEVEL: 'warn' });
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

describe('commit-pinned rollback, unpin and history', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  const shas: string[] = [];

  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    gitServer = await startGitServer();
    repo = gitServer.repo('ops');
    shas.push(await repo.commit({ 'one.yaml': flowYaml('one') }));
    await env.kube.create(flowSource('ops', repo.url));
    await attempted(env.kube, 'ops', shas[0]!);
    shas.push(await repo.commit({ 'two.yaml': flowYaml('two'), 'one.yaml': flowYaml('one', 'v2') }));
    env.controllers.sources!.trigger('default', 'ops');
    await attempted(env.kube, 'ops', shas[1]!);
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
  });

  it('rolls back to an older commit (short sha), applying it with provenance and pruning what it lacks', async () => {
    const r = await flowops(['rollback', 'default/ops', '--to', shas[0]!.slice(0, 8), '--wait'], env.ts.kubeconfig);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`default/ops pinned to ${shas[0]}`);
    expect(r.stdout).toContain(`Applied: main@sha1:${shas[0]}`);
    expect(r.code).toBe(0);
    expect(await flowNames(env.kube)).toEqual(['one']);
    const one = await env.kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', name: 'one', namespace: 'default' });
    expect(one!.metadata.annotations!['flowops.io/revision']).toBe(`main@sha1:${shas[0]}`);
    expect(JSON.stringify(one!.spec)).toContain('-v1');
  });

  it('stays pinned when the branch moves', async () => {
    const sha3 = await repo.commit({ 'three.yaml': flowYaml('three') });
    const before = gitServer.requests.length;
    // One reconcile, as the poller would run it: the pin is what it applies.
    await env.controllers.sources!.reconciler.reconcile('default', 'ops');
    const s = await sourceStatus(env.kube, 'ops');
    expect(s.lastAppliedRevision).toBe(`main@sha1:${shas[0]}`);
    expect(s.lastAttemptedRevision).toBe(`main@sha1:${shas[0]}`);
    expect(await flowNames(env.kube)).toEqual(['one']);
    // A pinned commit that is already here is not fetched again.
    expect(gitServer.requests.length).toBe(before);
    shas.push(sha3);
  });

  it('prints the history as a table', async () => {
    const r = await flowops(['history', 'ops'], env.ts.kubeconfig);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\s+REVISION\s+TIME\s+OUTCOME\s+STATE\s+MESSAGE$/);
    expect(lines[1]).toMatch(new RegExp(`^\\*\\s+main@sha1:${shas[0]}\\s+\\S+Z\\s+Applied\\s+`));
    expect(lines[2]).toMatch(new RegExp(`main@sha1:${shas[1]}\\s+\\S+\\s+Applied`));
    expect(r.stdout).toContain(`pinned to ${shas[0]}`);
  });

  it('unpins and follows the branch to its tip', async () => {
    const r = await flowops(['rollback', 'ops', '--unpin', '--wait'], env.ts.kubeconfig);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('default/ops unpinned: following branch main');
    expect(r.stdout).toContain(`Applied: main@sha1:${shas[2]}`);
    expect(await flowNames(env.kube)).toEqual(['one', 'three', 'two']);
    const src = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      name: 'ops',
      namespace: 'default',
    });
    expect((src!.spec as { ref: Record<string, string> }).ref).toEqual({ branch: 'main' });
  });

  it('refuses an unknown short sha with one clear line', async () => {
    const r1 = await flowops(['rollback', 'ops', '--to', 'abcdef12'], env.ts.kubeconfig);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toBe('flowops: "abcdef12" is not in this source\'s history; give the full 40-character sha\n');
  });
});
