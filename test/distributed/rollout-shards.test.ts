import { randomUUID } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { shardOf } from '../../src/runtime/shards/index.js';
import { waitFor } from '../helpers/wait.js';
import {
  flowOf,
  generationOf,
  isReady,
  listShops,
  markChildrenReady,
  rolloutOf,
  installShopKinds,
  shopFlow,
  shopName,
  shops,
  targetOf,
  type RolloutView,
} from '../rollout/fixtures.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, type Proc } from './processes.js';

// Issue #24 with `flowops run --shards 4` on two replicas: each replica's watches hold only its
// shards' objects, yet a rollout's stages count and gate on all of the Flow's objects. The holder of
// shard 0 judges the rollout from every shard; the Flow is chosen so that its own shard (and so its
// status writer) is on the other replica, the path where the two must agree through the cluster.

const SHARDS = 4;
const N = 20;
// No replica is killed here, so the leases can be long: a key is enqueued only while its shard's
// last renewal is within the renew deadline (docs/sharding.md), and on this shared machine a renewal
// can come seconds late; with shards.test.ts' 2s deadline such a key would be dropped until a resync.
const LEASE = ['--lease-duration', '20s', '--renew-deadline', '15s', '--retry-period', '1s'];
const STAGES = `stages:
  - count: 1
  - percent: 10
  - percent: 50
  - percent: 100
maxUnavailable: "100%"
`;
const DONE = '{{ eq (index .Child.data "state") "done" }}';
const NEVER = '{{ eq .Child.data.version "never" }}';

const cluster = apiServerFixture(installShopKinds);

async function apply(text: string): Promise<void> {
  for (const doc of parseAllDocuments(text)) {
    const obj = doc.toJSON() as KubeObject | null;
    if (obj) await cluster.kube().apply(obj, { fieldManager: 'test', force: true });
  }
}

async function heldBy(metrics: string): Promise<number[] | undefined> {
  try {
    const text = await (await fetch(`${metrics}/metrics`, { signal: AbortSignal.timeout(1000) })).text();
    return [...text.matchAll(/^flowops_shard_held\{shard="(\d+)"\} 1$/gm)].map((m) => Number(m[1]));
  } catch {
    return undefined;
  }
}

interface Sharded {
  runs: Proc[];
  metrics: string[];
  /** The shards held by each replica once balanced. */
  held: number[][];
  logs(): string;
}

async function startSharded(): Promise<Sharded> {
  const queue = `rollout-shards-${randomUUID()}`;
  const group = `rs-${randomUUID().slice(0, 8)}`;
  const common = ['--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0', '--queue', queue];
  const runArgs = ['run', ...common, '--no-ui', '--lease-namespace', 'default', '--lease-name', group];
  const runs = [0, 1].map((i) =>
    cluster.track(
      spawnFlowops(`run-${i}`, [...runArgs, '--shards', String(SHARDS), ...LEASE], { FLOWOPS_LOG_LEVEL: 'info' }),
    ),
  );
  const workers = [1, 2].map((i) =>
    cluster.track(
      spawnFlowops(`worker-${i}`, ['worker', ...common, '--concurrency', '4'], { FLOWOPS_LOG_LEVEL: 'info' }),
    ),
  );
  const all = [...runs, ...workers];
  const logs = (): string => all.map((p) => `--- ${p.name}:\n${p.stderr().slice(-2500)}`).join('\n');
  const metrics = await Promise.all(runs.map(metricsAddressOf));
  await Promise.all(workers.map(metricsAddressOf));
  const held = await waitFor(
    async () => {
      const h = await Promise.all(metrics.map(heldBy));
      return h.every((x) => x?.length === SHARDS / 2) ? h.map((x) => x ?? []) : undefined;
    },
    { what: `two replicas holding ${SHARDS / 2} shards each\n${logs()}`, timeoutMs: 30_000 },
  );
  return { runs, metrics, held, logs };
}

/**
 * A Flow name (and suite) whose own shard is held by the replica that does not hold shard 0, and
 * whose N objects spread over all four shards, so both replicas' watches hold some of them.
 */
function nameOnOtherReplica(held: number[][], prefix: string): string {
  const other = held.find((h) => !h.includes(0)) ?? [];
  const spread = (suite: string): boolean =>
    new Set(Array.from({ length: N }, (_, i) => shardOf('default', shopName(suite, i), SHARDS))).size === SHARDS;
  for (let i = 0; ; i++) {
    const name = `${prefix}${i}`;
    if (other.includes(shardOf('default', name, SHARDS)) && spread(name)) return name;
  }
}

const onGen = (objs: KubeObject[], g: string): string[] =>
  objs.filter((o) => generationOf(o) === g).map((o) => o.metadata.name ?? '');

describe('a rollout with flowops run --shards 4 on two replicas', () => {
  it('passes its stages in order over the objects of every shard, and a halt is seen', async () => {
    const s = await startSharded();
    const flow = nameOnOtherReplica(s.held, 'good');
    const suite = flow;

    const settledOn = async (g: string): Promise<KubeObject[]> => {
      let seen = '';
      try {
        return await waitFor(
          async () => {
            const objs = await listShops(cluster.kube(), suite);
            seen = objs.map((o) => `${o.metadata.name}:${generationOf(o)}:${isReady(o)}:${targetOf(o)}`).join(' ');
            return objs.length === N && objs.every((o) => generationOf(o) === g && isReady(o)) ? objs : undefined;
          },
          { what: `${N} Shops Ready on generation ${g}`, timeoutMs: 60_000, intervalMs: 250 },
        );
      } catch (e) {
        throw new Error(`${String(e)} (name:generation:ready:target ${seen})\n${s.logs()}`);
      }
    };
    await apply(shopFlow({ name: flow, suite, version: 'v1', rollout: STAGES }));
    await apply(shops(suite, N));
    await settledOn('1');
    // status.generations counts every shard's objects, not one replica's share.
    await waitFor(
      async () => {
        const st = (await flowOf(cluster.kube(), flow))?.status as
          | { generations?: Array<{ generation: number; objects: number }> }
          | undefined;
        return st?.generations?.[0]?.objects === N;
      },
      { what: `status.generations counting ${N}\n${s.logs()}`, timeoutMs: 20_000 },
    );

    await apply(shopFlow({ name: flow, suite, version: 'v2', readyWhen: DONE, rollout: STAGES }));
    let marked = 0;
    for (const [stage, total] of [
      [0, 1],
      [1, 2],
      [2, 10],
      [3, 20],
    ] as const) {
      const objs = await waitFor(
        async () => {
          const r = await rolloutOf(cluster.kube(), flow);
          const all = await listShops(cluster.kube(), suite);
          const waiting = all.filter((o) => generationOf(o) === '2' && !isReady(o)).length === total - marked;
          const counted = r?.stages?.[stage]?.target === total && r.stages[stage]?.updated === total;
          const moved = onGen(all, '2').length === total;
          return r?.generation === 2 && r.currentStage === stage && counted && moved && waiting ? all : undefined;
        },
        { what: `stage ${stage + 1}: ${total} of ${N} on generation 2\n${s.logs()}`, timeoutMs: 60_000 },
      );
      // The first `total` by name, whichever shard (and so replica) each is in.
      expect(onGen(objs, '2').sort()).toEqual(Array.from({ length: total }, (_, i) => shopName(suite, i)));
      await markChildrenReady(
        cluster.kube(),
        Array.from({ length: total - marked }, (_, i) => shopName(suite, marked + i)),
      );
      marked = total;
    }
    const done = await waitFor(
      async () => {
        const r = await rolloutOf(cluster.kube(), flow);
        return r?.generation === 2 && r.state === 'Complete' ? r : undefined;
      },
      { what: `rollout Complete\n${s.logs()}`, timeoutMs: 60_000 },
    );
    expect(done.stages?.map((x) => x.target)).toEqual([1, 2, 10, 20]);
    await settledOn('2');

    // A change whose child never becomes Ready: halted at stage 1 with one object moved, and the
    // Flow's Ready (written by the replica of the Flow's shard) says so.
    await apply(
      shopFlow({ name: flow, suite, version: 'v3', readyWhen: NEVER, rollout: `${STAGES}progressDeadline: 3s\n` }),
    );
    const halted: RolloutView = await waitFor(
      async () => {
        const r = await rolloutOf(cluster.kube(), flow);
        return r?.generation === 3 && r.state === 'Halted' ? r : undefined;
      },
      { what: `rollout of generation 3 Halted\n${s.logs()}`, timeoutMs: 60_000 },
    );
    expect(halted.currentStage).toBe(0);
    expect(halted.failed?.map((f) => f.object)).toEqual([`default/${shopName(suite, 0)}`]);
    const all = await listShops(cluster.kube(), suite);
    expect(onGen(all, '3')).toEqual([shopName(suite, 0)]);
    expect(onGen(all, '2')).toHaveLength(N - 1);
    const ready = await waitFor(
      async () => {
        const conditions = (
          (await flowOf(cluster.kube(), flow))?.status as {
            conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
          }
        ).conditions;
        const c = conditions?.find((x) => x.type === 'Ready');
        return c?.reason === 'RolloutHalted' ? c : undefined;
      },
      { what: `Ready=False RolloutHalted on the Flow\n${s.logs()}`, timeoutMs: 20_000 },
    );
    expect(ready.status).toBe('False');
    expect(ready.message).toContain(`default/${shopName(suite, 0)}`);
  }, 240_000);

  it('continues after kill -9 of the shard-0 holder in the middle of the rollout', async () => {
    const s = await startSharded();
    const flow = nameOnOtherReplica(s.held, 'ha');
    const paused = 'stages:\n  - count: 2\n    pause: { untilPromoted: true }\n  - percent: 100\n';
    await apply(shopFlow({ name: flow, suite: flow, version: 'v1', rollout: paused }));
    await apply(shops(flow, N));
    const settled = (g: string) => async () => {
      const objs = await listShops(cluster.kube(), flow);
      return objs.length === N && objs.every((o) => generationOf(o) === g && isReady(o));
    };
    await waitFor(settled('1'), { what: `${N} Shops Ready on generation 1\n${s.logs()}`, timeoutMs: 60_000 });
    await apply(shopFlow({ name: flow, suite: flow, version: 'v2', rollout: paused }));
    await waitFor(async () => (await rolloutOf(cluster.kube(), flow))?.state === 'Paused', {
      what: `rollout Paused after stage 1\n${s.logs()}`,
      timeoutMs: 60_000,
    });
    expect(onGen(await listShops(cluster.kube(), flow), '2')).toHaveLength(2);
    const judge = s.held.findIndex((h) => h.includes(0));
    const survivor = 1 - judge;
    s.runs[judge]?.kill9();
    // The survivor takes shard 0 once its Lease expired, and with it the rollout.
    await waitFor(async () => (await heldBy(s.metrics[survivor] ?? ''))?.length === SHARDS, {
      what: `the survivor holding all ${SHARDS} shards\n${s.logs()}`,
      timeoutMs: 60_000,
    });
    await cluster
      .kube()
      .patch(
        { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: flow },
        { metadata: { annotations: { 'flowops.io/rollout-promote': new Date().toISOString() } } },
        'merge',
        { fieldManager: 'test' },
      );
    const done = await waitFor(
      async () => {
        const r = await rolloutOf(cluster.kube(), flow);
        return r?.generation === 2 && r.state === 'Complete' ? r : undefined;
      },
      { what: `rollout Complete on the survivor\n${s.logs()}`, timeoutMs: 60_000 },
    );
    expect(done.stages?.map((x) => x.target)).toEqual([2, N]);
    await waitFor(settled('2'), { what: `${N} Shops Ready on generation 2\n${s.logs()}`, timeoutMs: 60_000 });
  }, 240_000);
});
