import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { runFlowops } from '../helpers/cli.js';
import { attempted, flowSource, flowYaml, gitopsEnvironment, sourceStatus } from '../gitops/fixtures.js';
import { waitFor } from '../helpers/wait.js';

// The everyday verbs, run as a user runs them (spawned flowops, real kubectl beside them).

const { env, git } = gitopsEnvironment();

async function flowops(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runFlowops([...args, '--kubeconfig', env().ts.kubeconfig]);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

describe('everyday verbs', () => {
  it('get flows and sources show the printer columns kubectl shows; get runs lists watched objects with their last run', async () => {
    await env().kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    const repo = git().repo('flows');
    const sha = await repo.commit({ 'flows/a.yaml': flowYaml('alpha') });
    await env().kube.create(flowSource('flows', repo.url, { path: 'flows' }));
    await attempted(env().kube, 'flows', sha);
    await env().kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'default' },
        spec: { size: 1 },
      }),
    );
    await waitFor(
      async () =>
        (await env().kubectl(['get', 'widget', 'w1', '-o', 'jsonpath={.metadata.annotations.flowops\\.io/last-run}']))
          .stdout,
      { what: 'w1 reconciled' },
    );

    const flows = await flowops('get', 'flows');
    expect(flows.stdout.split('\n')[0]).toMatch(
      /^NAME\s+WATCHED\s+READY\s+RESOURCES\s+CHILDREN-READY\s+ROLLOUT\s+AGE$/,
    );
    expect(flows.stdout).toMatch(/^alpha\s+Widget\s+True\s+1\s+/m);
    expect((await flowops('get', 'sources', '-A')).stdout).toMatch(
      /^default\s+flows\s+http:\S+\s+main@sha1:[0-9a-f]{40}\s+True/m,
    );
    // DURATION and RAN come from the object's RunHistory, written a moment after the run (batched).
    const row =
      /^default\/alpha\s+Widget\/default\/w1\s+Succeeded\s+\d+(\.\d+)?m?s\s+\d+[smh]\S*\s+True\s+Reconciled\s+main@sha1:[0-9a-f]{8}$/m;
    const runs = await waitFor(
      async () => {
        const r = await flowops('get', 'runs');
        return row.test(r.stdout) ? r : undefined;
      },
      { what: 'get runs showing the run with its duration' },
    );
    expect(runs.stdout).toMatch(/^FLOW\s+OBJECT\s+RUN\s+DURATION\s+RAN\s+READY\s+REASON\s+REVISION$/m);
    const yaml = await flowops('get', 'flows', '-o', 'json');
    expect(JSON.parse(yaml.stdout).items.map((f: { metadata: { name: string } }) => f.metadata.name)).toEqual([
      'alpha',
    ]);
  });

  it('reconcile source --wait syncs now and reports the revision', async () => {
    const r = await flowops('reconcile', 'source', 'flows', '--wait', '--timeout', '30s');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^FlowSource default\/flows: synced at main@sha1:[0-9a-f]{40}\n$/);
    expect(
      ((await sourceStatus(env().kube, 'flows')) as { lastHandledReconcileAt?: string }).lastHandledReconcileAt,
    ).toBeDefined();
  });

  it('reconcile flow runs every watched object again', async () => {
    // FlowOps' own annotations are not causes: removing the run record triggers nothing, a rerun writes it back.
    await env().kubectl.ok(['annotate', 'widget', 'w1', 'flowops.io/last-run-']);
    expect((await flowops('reconcile', 'flow', 'alpha')).stdout).toBe('Flow default/alpha: reconcile requested\n');
    await waitFor(
      async () =>
        (await env().kubectl(['get', 'widget', 'w1', '-o', 'jsonpath={.metadata.annotations.flowops\\.io/last-run}']))
          .stdout,
      { what: 'the run record written again by the rerun' },
    );
    expect((await flowops('reconcile', 'flow', 'alpha', '--wait')).code).toBe(2);
  });

  it('suspend and resume set spec.suspend', async () => {
    expect((await flowops('suspend', 'source', 'flows')).stdout).toBe('FlowSource default/flows suspended\n');
    expect(await env().kubectl.ok(['get', 'flowsource', 'flows', '-o', 'jsonpath={.spec.suspend}'])).toBe('true');
    expect((await flowops('resume', 'source', 'flows')).stdout).toBe('FlowSource default/flows resumed\n');
    expect(await env().kubectl.ok(['get', 'flowsource', 'flows', '-o', 'jsonpath={.spec.suspend}'])).toBe('false');
    expect(await flowops('suspend', 'gizmo', 'x')).toMatchObject({
      code: 2,
      stderr: 'flowops: expected "flow" or "source", got "gizmo"\n',
    });
    expect(await flowops('suspend', 'flow', 'nope')).toMatchObject({
      code: 2,
      stderr: 'flowops: Flow default/nope not found\n',
    });
  });

  it("events lists an object's Events", async () => {
    const r = await flowops('events', 'widget/w1');
    expect(r.stdout.split('\n')[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+COUNT\s+MESSAGE$/);
    expect(r.stdout).toMatch(/Normal\s+Reconciled\s+1\s+Flow alpha reconciled/);
  });

  it('completion prints scripts bash accepts, naming every command', async () => {
    const completion = async (shell: string) => {
      const p = runFlowops(['completion', shell]);
      await p.exited;
      return { stdout: p.stdout() };
    };
    const r = await completion('bash');
    for (const c of ['up', 'tree', 'get', 'reconcile']) expect(r.stdout).toContain(c);
    expect(spawnSync('bash', ['-n'], { input: r.stdout }).status).toBe(0);
    expect((await completion('fish')).stdout).toContain('complete -c flowops');
    expect((await completion('zsh')).stdout).toContain('#compdef flowops');
  });
});
