import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';
import type { KubeObject } from '../../src/kube/types.js';
import {
  flowOf,
  generationOf,
  isReady,
  listShops,
  markChildrenReady,
  rolloutOf,
  SHOP_CRD,
  shopFlow,
  shopName,
  shops,
  targetOf,
} from './fixtures.js';

// Issue #24: a new generation of a Flow reaches its watched objects stage by stage, each stage
// gated on the objects' readiness; a stage that fails halts (or rolls back) with the rest untouched.

const STAGES = `stages:
  - count: 1
  - percent: 10
  - percent: 50
  - percent: 100
maxUnavailable: "100%"
`;
const DONE = '{{ eq (index .Child.data "state") "done" }}';

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps();
  await env.kubectl.ok(['apply', '-f', '-'], SHOP_CRD);
}, 60_000);
afterAll(async () => env?.stop());

const child = (name: string) =>
  env.kube.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: `${name}-cfg` });
const versionOf = async (name: string): Promise<string | undefined> =>
  ((await child(name)) as { data?: Record<string, string> } | undefined)?.data?.version;
const onGeneration = (objs: KubeObject[], g: string) => objs.filter((o) => generationOf(o) === g);

/** All n Shops of the suite reconciled by generation g and Ready. */
async function settledOn(suite: string, n: number, g: string): Promise<KubeObject[]> {
  return waitFor(
    async () => {
      const objs = await listShops(env.kube, suite);
      return objs.length === n && objs.every((o) => generationOf(o) === g && isReady(o)) ? objs : undefined;
    },
    { what: `${n} ${suite} Shops Ready on generation ${g}`, timeoutMs: 90_000, intervalMs: 200 },
  );
}

describe('a good change of 100 objects in stages 1, 10%, 50%, 100%', () => {
  const N = 100;
  it('starts with every object on generation 1, on the object, the run record and the Flow status', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'good', suite: 'good', version: 'v1', rollout: STAGES }),
    );
    await env.kubectl.ok(['apply', '-f', '-'], shops('good', N));
    await settledOn('good', N, '1');
    const status = await waitFor(
      async () => {
        const s = (await flowOf(env.kube, 'good'))?.status as
          | { generations?: Array<{ generation: number; objects: number }> }
          | undefined;
        return s?.generations?.[0]?.objects === N ? s : undefined;
      },
      { what: 'status.generations counting 100 on generation 1', timeoutMs: 20_000 },
    );
    expect(status.generations).toEqual([{ generation: 1, revision: 'good-g1', objects: N, ready: N }]);
    const rev = await env.kube.get({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      namespace: 'default',
      name: 'good-g1',
    });
    expect(rev?.metadata.labels?.['flowops.io/flow']).toBe('good');
    expect((rev as { revision?: number }).revision).toBe(1);
    const runs = await waitFor(
      async () => {
        const h = await env.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'RunHistory',
          namespace: 'default',
          name: 'shop-good-000',
        });
        const runs = (h?.status as { runs?: Array<{ flowGeneration: number }> } | undefined)?.runs;
        return runs?.length ? runs : undefined;
      },
      { what: 'the run record of good-000', timeoutMs: 20_000 },
    );
    expect(runs[0]?.flowGeneration).toBe(1);
  }, 120_000);

  it('moves generation 2 stage by stage, each stage waiting for its objects to be Ready', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'good', suite: 'good', version: 'v2', readyWhen: DONE, rollout: STAGES }),
    );
    let marked = 0;
    for (const [stage, total] of [
      [0, 1],
      [1, 10],
      [2, 50],
      [3, 100],
    ] as const) {
      // The stage's objects ran generation 2 and are not Ready yet: the stage holds, nothing beyond it moved.
      const objs = await waitFor(
        async () => {
          const r = await rolloutOf(env.kube, 'good');
          const all = await listShops(env.kube, 'good');
          const on2 = onGeneration(all, '2');
          const waiting = on2.length === total && on2.filter((o) => !isReady(o)).length === total - marked;
          return r?.generation === 2 && r.currentStage === stage && waiting && r.stages?.[stage]?.updated === total
            ? all
            : undefined;
        },
        { what: `stage ${stage + 1}: ${total} objects on generation 2, not Ready`, timeoutMs: 60_000, intervalMs: 200 },
      );
      expect(objs.filter((o) => targetOf(o) === '2').length).toBe(total);
      // In the stable order: the first `total` by name.
      expect(
        onGeneration(objs, '2')
          .map((o) => o.metadata.name)
          .sort(),
      ).toEqual(Array.from({ length: total }, (_, i) => shopName('good', i)));
      expect(await versionOf(shopName('good', total - 1))).toBe('v2');
      if (total < N) expect(await versionOf(shopName('good', total))).toBe('v1');
      await markChildrenReady(
        env.kube,
        Array.from({ length: total - marked }, (_, i) => shopName('good', marked + i)),
      );
      marked = total;
    }
    const r = await waitFor(
      async () => ((await rolloutOf(env.kube, 'good'))?.state === 'Complete' ? rolloutOf(env.kube, 'good') : undefined),
      {
        what: 'rollout Complete',
        timeoutMs: 60_000,
      },
    );
    expect(r?.stages?.map((s) => s.state)).toEqual(['Passed', 'Passed', 'Passed', 'Passed']);
    await settledOn('good', N, '2');
    // Generation 1 is used by no object any more: its revision goes, the newest stays.
    await waitFor(
      async () =>
        !(await env.kube.get({
          apiVersion: 'apps/v1',
          kind: 'ControllerRevision',
          namespace: 'default',
          name: 'good-g1',
        })),
      {
        what: 'good-g1 deleted',
        timeoutMs: 20_000,
      },
    );
    expect(
      await env.kube.get({ apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace: 'default', name: 'good-g2' }),
    ).toBeDefined();
    const events = await env.kubectl.ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=good',
      '-o',
      'json',
    ]);
    const reasons = (JSON.parse(events) as { items: Array<{ reason: string }> }).items.map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['RolloutStageStarted', 'RolloutStagePassed', 'RolloutComplete']));
  }, 300_000);
});

describe('a change whose child never becomes Ready', () => {
  const N = 100;
  const HALT = `${STAGES}progressDeadline: 3s\n`;
  it('halts at stage 1 with exactly one object on the new generation and 99 untouched', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], shopFlow({ name: 'bad', suite: 'bad', version: 'v1', rollout: HALT }));
    await env.kubectl.ok(['apply', '-f', '-'], shops('bad', N));
    await settledOn('bad', N, '1');
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({
        name: 'bad',
        suite: 'bad',
        version: 'v2',
        readyWhen: '{{ eq .Child.data.version "never" }}',
        rollout: HALT,
      }),
    );
    const r = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'bad');
        return r?.generation === 2 && r.state === 'Halted' ? r : undefined;
      },
      { what: 'rollout Halted', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(r.currentStage).toBe(0);
    expect(r.failed).toEqual([{ object: 'default/bad-000', reason: expect.stringContaining('not Ready within 3s') }]);
    const all = await listShops(env.kube, 'bad');
    expect(onGeneration(all, '2').map((o) => o.metadata.name)).toEqual(['bad-000']);
    expect(onGeneration(all, '1')).toHaveLength(99);
    const flow = await flowOf(env.kube, 'bad');
    const ready = (
      (flow?.status as { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> })
        .conditions ?? []
    ).find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'RolloutHalted' });
    expect(ready?.message).toContain('default/bad-000');
    const events = await env.kubectl.ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=bad,reason=RolloutHalted',
      '-o',
      'json',
    ]);
    expect((JSON.parse(events) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  }, 180_000);

  it('keeps the untouched objects self-healing by their old generation', async () => {
    const before = await child('bad-050');
    await env.kube.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'bad-050-cfg' });
    const after = await waitFor(
      async () => {
        const c = await child('bad-050');
        return c && c.metadata.uid !== before?.metadata.uid ? c : undefined;
      },
      { what: 'bad-050-cfg recreated', timeoutMs: 20_000 },
    );
    expect((after as { data?: Record<string, string> }).data?.version).toBe('v1');
    expect((await rolloutOf(env.kube, 'bad'))?.state).toBe('Halted');
  }, 60_000);

  it('a second commit supersedes it: the objects go to the newest generation along the same stages', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'bad', suite: 'bad', version: 'v3', readyWhen: DONE, rollout: HALT.replace('3s', '60s') }),
    );
    const r = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'bad');
        return r?.generation === 3 && r.state === 'Progressing' ? r : undefined;
      },
      { what: 'rollout of generation 3', timeoutMs: 30_000 },
    );
    expect(r.fromGeneration).toBe(1);
    await waitFor(async () => onGeneration(await listShops(env.kube, 'bad'), '3').length === 1, {
      what: 'bad-000 on generation 3',
      timeoutMs: 30_000,
    });
    const all = await listShops(env.kube, 'bad');
    expect(onGeneration(all, '3').map((o) => o.metadata.name)).toEqual(['bad-000']);
    expect(onGeneration(all, '2')).toHaveLength(0);
    expect(await versionOf('bad-000')).toBe('v3');
  }, 90_000);
});

describe('onFailure: rollback', () => {
  const N = 10;
  const ROLLBACK = `stages:\n  - count: 2\n  - percent: 100\nprogressDeadline: 2s\nonFailure: rollback\n`;
  it('returns the reached objects to the previous generation, their children re-rendered by it', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'back', suite: 'back', version: 'v1', rollout: ROLLBACK }),
    );
    await env.kubectl.ok(['apply', '-f', '-'], shops('back', N));
    await settledOn('back', N, '1');
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({
        name: 'back',
        suite: 'back',
        version: 'v2',
        readyWhen: '{{ eq .Child.data.version "never" }}',
        rollout: ROLLBACK,
      }),
    );
    const r = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'back');
        return r?.generation === 2 && r.state === 'RolledBack' ? r : undefined;
      },
      { what: 'rollout RolledBack', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(r.failed?.map((f) => f.object)).toEqual(['default/back-000', 'default/back-001']);
    await settledOn('back', N, '1');
    expect(await versionOf('back-000')).toBe('v1');
    expect(await versionOf('back-001')).toBe('v1');
    const ready = (
      (await flowOf(env.kube, 'back'))?.status as { conditions?: Array<{ type: string; reason?: string }> }
    ).conditions?.find((c) => c.type === 'Ready');
    expect(ready?.reason).toBe('RolloutHalted');
  }, 120_000);
});

describe('a stage paused until promoted', () => {
  const N = 10;
  const PAUSED = `stages:
  - count: 1
    pause: { untilPromoted: true }
  - percent: 100
maxUnavailable: "100%"
`;
  it('waits after stage 1 passed, and goes on when promoted', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'gate', suite: 'gate', version: 'v1', rollout: PAUSED }),
    );
    await env.kubectl.ok(['apply', '-f', '-'], shops('gate', N));
    await settledOn('gate', N, '1');
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'gate', suite: 'gate', version: 'v2', rollout: PAUSED }),
    );
    const paused = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'gate');
        return r?.generation === 2 && r.state === 'Paused' ? r : undefined;
      },
      { what: 'rollout Paused after stage 1', timeoutMs: 30_000 },
    );
    expect(paused.stages?.[0]?.state).toBe('Paused');
    expect(onGeneration(await listShops(env.kube, 'gate'), '2')).toHaveLength(1);
    const flow = await flowOf(env.kube, 'gate');
    const rolling = (
      (flow?.status as { conditions?: Array<{ type: string; status: string; reason?: string }> }).conditions ?? []
    ).find((c) => c.type === 'Rolling');
    expect(rolling).toMatchObject({ status: 'True', reason: 'Paused' });
    await env.kubectl.ok([
      'annotate',
      'flow',
      'gate',
      `flowops.io/rollout-promote=${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    ]);
    await settledOn('gate', N, '2');
    const done = await waitFor(
      async () => ((await rolloutOf(env.kube, 'gate'))?.state === 'Complete' ? rolloutOf(env.kube, 'gate') : undefined),
      {
        what: 'rollout Complete after promote',
        timeoutMs: 30_000,
      },
    );
    expect(done?.stages?.map((s) => s.state)).toEqual(['Passed', 'Passed']);
  }, 120_000);
});

describe('the pause and abort controls (annotations on the Flow)', () => {
  const N = 10;
  const STEPPED = `stages:
  - count: 2
  - percent: 100
maxUnavailable: "100%"
`;
  const stamp = (): string => new Date(Date.now() + 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  it('pauses with flowops.io/rollout-paused, and aborts back to the old generation with rollout-abort', async () => {
    const first = shopFlow({ name: 'ctl', suite: 'ctl', version: 'v1', rollout: STEPPED });
    await env.kubectl.ok(['apply', '-f', '-'], first);
    await env.kubectl.ok(['apply', '-f', '-'], shops('ctl', N));
    await settledOn('ctl', N, '1');
    await env.kubectl.ok(['annotate', 'flow', 'ctl', 'flowops.io/rollout-paused=true']);
    const next = shopFlow({ name: 'ctl', suite: 'ctl', version: 'v2', readyWhen: DONE, rollout: STEPPED });
    await env.kubectl.ok(['apply', '-f', '-'], next);
    const paused = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'ctl');
        return r?.generation === 2 && r.state === 'Paused' ? r : undefined;
      },
      { what: 'rollout Paused by the annotation', timeoutMs: 30_000 },
    );
    expect(paused.stages?.[0]?.updated).toBe(0);
    expect(onGeneration(await listShops(env.kube, 'ctl'), '2')).toHaveLength(0);
    await env.kubectl.ok(['annotate', 'flow', 'ctl', 'flowops.io/rollout-paused-']);
    await waitFor(async () => onGeneration(await listShops(env.kube, 'ctl'), '2').length === 2, {
      what: 'stage 1 moving once resumed',
      timeoutMs: 30_000,
    });
    await env.kubectl.ok(['annotate', 'flow', 'ctl', `flowops.io/rollout-abort=${stamp()}`]);
    const aborted = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'ctl');
        return r?.state === 'Aborted' ? r : undefined;
      },
      { what: 'rollout Aborted', timeoutMs: 30_000 },
    );
    expect(aborted.generation).toBe(2);
    await settledOn('ctl', N, '1');
    expect(await versionOf('ctl-000')).toBe('v1');
    const events = await env.kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.name=ctl', '-o', 'json']);
    const reasons = (JSON.parse(events) as { items: Array<{ reason: string }> }).items.map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['RolloutPaused', 'RolloutResumed', 'RolloutAborted']));
  }, 120_000);
});

describe('a generation whose ControllerRevision was deleted by hand', () => {
  it('stalls the objects on it with a reason naming it, and moves none', async () => {
    // The halted "bad" Flow: generation 1 objects wait on good-g1's counterpart, bad-g1.
    await env.kube.delete({ apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace: 'default', name: 'bad-g1' });
    await env.kube.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'bad-070-cfg' });
    const stalled = await waitFor(
      async () => {
        const o = await env.kube.get({
          apiVersion: 'rollout.example.com/v1',
          kind: 'Shop',
          namespace: 'default',
          name: 'bad-070',
        });
        const c = (
          (o?.status as { conditions?: Array<{ type: string; status: string; message?: string }> } | undefined)
            ?.conditions ?? []
        ).find((x) => x.type === 'Stalled');
        return c?.status === 'True' ? c : undefined;
      },
      { what: 'bad-070 Stalled', timeoutMs: 30_000 },
    );
    expect(stalled.message).toContain('ControllerRevision default/bad-g1');
    const o = await env.kube.get({
      apiVersion: 'rollout.example.com/v1',
      kind: 'Shop',
      namespace: 'default',
      name: 'bad-070',
    });
    expect(o && generationOf(o)).toBe('1');
    expect(await child('bad-070')).toBeUndefined();
  }, 60_000);
});

describe('a stage whose selector matches no watched object', () => {
  const N = 10;
  const CANARY = `stages:
  - count: 1
  - selector: tier=canary
  - percent: 100
maxUnavailable: "100%"
`;
  it('halts at that stage with the selector named, instead of passing empty into the next', async () => {
    const flow = (version: string): string => shopFlow({ name: 'nosel', suite: 'nosel', version, rollout: CANARY });
    await env.kubectl.ok(['apply', '-f', '-'], flow('v1'));
    await env.kubectl.ok(['apply', '-f', '-'], shops('nosel', N));
    await settledOn('nosel', N, '1');
    await env.kubectl.ok(['apply', '-f', '-'], flow('v2'));
    const r = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'nosel');
        return r?.generation === 2 && r.state === 'Halted' ? r : undefined;
      },
      { what: 'rollout Halted at the selector stage', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(r.currentStage).toBe(1);
    expect(r.stages?.map((s) => s.state)).toEqual(['Passed', 'Failed', 'Pending']);
    const why = `selector "tier=canary" of stage 2 matches none of the ${N} watched objects`;
    expect(r.failed).toEqual([{ object: '-', reason: expect.stringContaining(why) }]);
    expect(r.message).toBe(`stage 2 of 3 of generation 2 failed: ${r.failed?.[0]?.reason ?? ''}`);
    const all = await listShops(env.kube, 'nosel');
    expect(onGeneration(all, '2').map((o) => o.metadata.name)).toEqual(['nosel-000']);
    type Conditions = { conditions?: Array<{ type: string; reason?: string; message?: string }> };
    const conditions = ((await flowOf(env.kube, 'nosel'))?.status as Conditions).conditions ?? [];
    const ready = conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ reason: 'RolloutHalted', message: expect.stringContaining(why) });
    const events = await env.kubectl.ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=nosel,reason=RolloutHalted',
      '-o',
      'json',
    ]);
    const messages = (JSON.parse(events) as { items: Array<{ message: string }> }).items.map((e) => e.message);
    expect(messages.some((m) => m.includes(why))).toBe(true);
  }, 120_000);
});
