import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CRD, CACHE_FLOW, cache, requiresSizeFlow, sizelessCache } from '../fixtures/cache-operator.js';
import { runFlowops } from '../helpers/cli.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

// `flowops tree` / `why`: the causal chain of an object, read from what the engine leaves on it.

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps();
  await env.kubectl.ok(['apply', '-f', '-'], CACHE_CRD);
  await env.kubectl.ok(['apply', '-f', '-'], CACHE_FLOW);
  await env.kubectl.ok(['apply', '-f', '-'], cache({ replicas: 3, shards: [1], extra: false }));
  await env.kubectl.ok(['apply', '-f', '-'], requiresSizeFlow('broken-operator', 'broken', true));
  await env.kubectl.ok(['apply', '-f', '-'], sizelessCache('bad', 'broken'));
  await waitFor(
    async () =>
      JSON.parse(await env.kubectl.ok(['get', 'cache', 'fast', '-o', 'json'])).metadata.annotations?.[
        'flowops.io/last-run'
      ],
    { what: 'a run record on fast' },
  );
  await waitFor(
    async () =>
      JSON.parse(await env.kubectl.ok(['get', 'cache', 'bad', '-o', 'json'])).metadata.annotations?.[
        'flowops.io/last-run'
      ],
    { what: 'a run record on bad' },
  );
});
afterAll(async () => env?.stop());

async function tree(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runFlowops(['tree', ...args, '--kubeconfig', env.ts.kubeconfig]);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

describe('flowops tree', () => {
  it('shows the Flow, the object, its last run and its children with the reason one is not ready', async () => {
    // The durations and the start come from the object's RunHistory, which may land a moment
    // after the object's status: the tree is asked again until it has them.
    const r = await waitFor(
      async () => {
        const t = await tree('cache/fast');
        return /last run: Succeeded in /.test(t.stdout) ? t : undefined;
      },
      { what: 'flowops tree showing the last run with its duration' },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Flow default/cache-operator  Ready=True');
    expect(r.stdout).toContain(
      'Cache default/fast  Ready=False ChildrenNotReady: StatefulSet fast: 0/3 replicas ready',
    );
    expect(r.stdout).toMatch(
      / {3}├─ last run: Succeeded in \d+(\.\d+)?m?s, \d+[smh]\S* ago \(Flow generation 1\)\n {3}│ {2}├─ step workload {2}succeeded \d+(\.\d+)?m?s\n {3}│ {2}├─ step shards {2}succeeded \d+(\.\d+)?m?s\n {3}│ {2}└─ step extra {2}skipped\n/,
    );
    expect(r.stdout).toContain('─ StatefulSet default/fast  InProgress: 0/3 replicas ready');
    expect(r.stdout).toContain('─ ConfigMap default/fast-shard-1  Current');
  });

  it('names the failing step of a broken object and that it is stalled (why is the same verb)', async () => {
    const p = runFlowops(['why', 'cache/bad', '--kubeconfig', env.ts.kubeconfig]);
    await p.exited;
    expect(p.stdout()).toContain('Flow default/broken-operator');
    expect(p.stdout()).toContain('Stalled: step "render" failed:');
    expect(p.stdout()).toMatch(
      /last run: Stalled in \S+, \S+ ago \(Flow generation 1\)\n\s+│?\s*├─ step fine {2}succeeded \S+\n\s+│?\s*└─ step render {2}failed \S+: TemplateError: .*spec\.size is required/,
    );
  });

  it('leads from a child to its owner', async () => {
    const r = await tree('sts/fast');
    expect(r.stdout.split('\n')[0]).toBe('StatefulSet fast is a child of Cache default/fast:');
    expect(r.stdout).toContain('Cache default/fast  Ready=False ChildrenNotReady');
  });

  it('gives tools JSON with -o json', async () => {
    const r = await tree('cache/fast', '-o', 'json');
    const t = JSON.parse(r.stdout) as {
      flow: {
        name: string;
        objects: Array<{
          children: Array<{ kind: string; health: string; message: string }>;
          lastRun: { outcome: string };
          runs: Array<{ outcome: string; duration: string }>;
        }>;
      };
    };
    expect(t.flow.name).toBe('cache-operator');
    expect(t.flow.objects[0]!.lastRun.outcome).toBe('Succeeded');
    expect(t.flow.objects[0]!.runs[0]).toMatchObject({
      outcome: 'Succeeded',
      duration: expect.stringMatching(/^\d+(\.\d+)?m?s$/),
    });
    expect(t.flow.objects[0]!.children).toContainEqual({
      kind: 'StatefulSet',
      namespace: 'default',
      name: 'fast',
      health: 'InProgress',
      message: '0/3 replicas ready',
    });
  });

  it('lists every watched object of a Flow', async () => {
    const r = await tree('flow/broken-operator');
    expect(r.stdout).toContain('Cache default/bad  Ready=False TemplateError');
  });

  it('lists the earlier runs after the last one', async () => {
    await env.kubectl.ok(['patch', 'cache', 'fast', '--type', 'merge', '-p', '{"spec":{"replicas":2}}']);
    await waitFor(
      async () => JSON.parse(await env.kubectl.ok(['get', 'runhistory', 'cache-fast', '-o', 'json'])).status.total >= 2,
      { what: 'a second run of fast' },
    );
    const r = await tree('cache/fast');
    expect(r.stdout).toMatch(/├─ earlier runs: Succeeded \d+(\.\d+)?m?s \d+[smh]\S* ago/);
  });

  it("shows each object's generation (flowops.io/flow-generation), and no rollout for a Flow without one", async () => {
    // The engine records on each object the Flow generation that reconciled it (docs/rollout.md).
    const flow = JSON.parse(await env.kubectl.ok(['get', 'flow', 'cache-operator', '-o', 'json'])) as {
      metadata: { generation: number };
    };
    const g = flow.metadata.generation;
    await waitFor(
      async () =>
        (await env.kubectl.ok([
          'get',
          'cache',
          'fast',
          '-o',
          'jsonpath={.metadata.annotations.flowops\\.io/flow-generation}',
        ])) === String(g),
      {
        what: `fast annotated with generation ${g}`,
      },
    );
    const r = await tree('flow/cache-operator');
    // Without spec.rollout there is no rollout to tell of (the engine writes no status.rollout).
    expect(r.stdout).toMatch(/^Flow default\/cache-operator {2}Ready=\S+.*$/m);
    expect(r.stdout).not.toContain('rollout of generation');
    expect(r.stdout).toMatch(new RegExp(`─ Cache default/fast {2}Ready=.* {2}\\[generation ${g}\\]$`, 'm'));
    const json = JSON.parse((await tree('cache/fast', '-o', 'json')).stdout) as {
      flow: { objects: Array<{ generation?: number }> };
    };
    expect(json.flow.objects[0]?.generation).toBe(g);
  });

  it('says what is wrong with a bad argument, exit 2', async () => {
    expect(await tree('cache')).toMatchObject({
      code: 2,
      stderr: 'flowops: expected KIND/NAME (e.g. database/my-postgres), got "cache"\n',
    });
    expect(await tree('gizmo/x')).toMatchObject({
      code: 2,
      stderr: 'flowops: the server doesn\'t have a resource type "gizmo"\n',
    });
    expect(await tree('cache/nope')).toMatchObject({
      code: 2,
      stderr: 'flowops: cache "nope" not found in namespace default\n',
    });
  });
});
