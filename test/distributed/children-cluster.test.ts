import { randomUUID } from 'node:crypto';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { flowCrd } from '../../src/api/crd.js';
import type { Condition, KubeObject, ObjectRef } from '../../src/kube/types.js';
import { CACHE_CRD, CACHE_FLOW, cache } from '../fixtures/cache-operator.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, type Proc } from './processes.js';

// The children scenarios with separate processes: two `flowops run` replicas (one leads and owns
// the child informers), two workers that reconcile; the leader is killed in the middle.

const LEASE = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
const cluster = apiServerFixture(async (kube) => {
  await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
  await kube.apply(parse(CACHE_CRD) as KubeObject, { fieldManager: 'test', force: true });
  await waitFor(
    async () =>
      kube.list('example.com/v1', 'Cache').then(
        () => true,
        () => false,
      ),
    { what: 'Cache served' },
  );
});

const ref = (apiVersion: string, kind: string, name: string): ObjectRef => ({
  apiVersion,
  kind,
  name,
  namespace: 'default',
});
const CACHE = ref('example.com/v1', 'Cache', 'fast');
const STS = ref('apps/v1', 'StatefulSet', 'fast');
const shard = (n: number) => ref('v1', 'ConfigMap', `fast-shard-${n}`);
const readyOf = async () =>
  ((await cluster.kube().get(CACHE))?.status as { conditions?: Condition[] } | undefined)?.conditions?.find(
    (c) => c.type === 'Ready',
  );
const identityOf = (p: Proc): string | undefined => /"identity":"([^"]+)","lease"/.exec(p.stderr())?.[1];

describe('children in cluster mode: leader + two workers, leader killed in the middle', () => {
  it('tracks, heals, prunes and judges children across a failover', async () => {
    const queue = `children-${randomUUID()}`;
    const leaseName = `c-${randomUUID().slice(0, 8)}`;
    const common = ['--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0', '--queue', queue];
    const runArgs = ['run', ...common, '--lease-namespace', 'default', '--lease-name', leaseName, ...LEASE];
    const [runA, runB] = [spawnFlowops('run-a', runArgs), spawnFlowops('run-b', runArgs)];
    const workerArgs = ['worker', ...common, '--concurrency', '4'];
    const [w1, w2] = [spawnFlowops('worker-1', workerArgs), spawnFlowops('worker-2', workerArgs)];
    for (const p of [runA, runB, w1, w2]) cluster.track(p);
    await Promise.all([runA, runB, w1, w2].map(metricsAddressOf));

    for (const doc of parseAllDocuments(CACHE_FLOW))
      await cluster.kube().apply(doc.toJSON() as KubeObject, { fieldManager: 'test', force: true });
    await cluster.kube().apply(JSON.parse(cache({ replicas: 3, shards: [1, 2, 3], extra: true })) as KubeObject, {
      fieldManager: 'test',
      force: true,
    });

    // Readiness: not ready while the StatefulSet has no ready replicas, ready once it reports 3/3.
    const notReady = await waitFor(
      async () => ((await readyOf())?.reason === 'ChildrenNotReady' ? readyOf() : undefined),
      { what: 'ChildrenNotReady', timeoutMs: 30_000 },
    );
    expect(notReady?.message).toContain('StatefulSet fast: 0/3 replicas ready');
    const sts = (await cluster.kube().get(STS))!;
    await cluster.kube().patch(
      STS,
      {
        status: {
          observedGeneration: sts.metadata.generation,
          replicas: 3,
          readyReplicas: 3,
          currentReplicas: 3,
          updatedReplicas: 3,
        },
      },
      'merge',
      { subresource: 'status' },
    );
    await waitFor(async () => (await readyOf())?.status === 'True', {
      what: 'Ready=True after the StatefulSet is ready',
      timeoutMs: 20_000,
    });
    await waitFor(
      async () =>
        ((await cluster.kube().get(CACHE))?.status as { readyReplicas?: number } | undefined)?.readyReplicas === 3,
      { what: 'projected readyReplicas 3' },
    );

    // Self-healing through the leader's child informers.
    const before = (await cluster.kube().get(shard(1)))!;
    await cluster.kube().delete(shard(1));
    await waitFor(
      async () => {
        const cm = await cluster.kube().get(shard(1));
        return cm && cm.metadata.uid !== before.metadata.uid;
      },
      { what: 'shard 1 recreated', timeoutMs: 20_000 },
    );

    // Kill the leader; the standby takes over and learns the child kinds from the inventories.
    const leaderId = await waitFor(
      async () =>
        (
          (await cluster.kube().get(ref('coordination.k8s.io/v1', 'Lease', leaseName)))?.spec as
            | { holderIdentity?: string }
            | undefined
        )?.holderIdentity || undefined,
      { what: 'lease holder' },
    );
    const leader = await waitFor(() => [runA, runB].find((p) => identityOf(p) === leaderId), {
      what: 'the leader process',
    });
    const standby = leader === runA ? runB : runA;
    leader.kill9();
    await waitFor(() => standby.stderr().includes('"msg":"became leader"'), {
      what: 'the standby leading',
      timeoutMs: 15_000,
    });
    await waitFor(
      () =>
        standby.stderr().includes('"msg":"watching child kind"') && standby.stderr().includes('StatefulSet.apps/v1'),
      { what: 'the new leader watching the child kinds', timeoutMs: 15_000 },
    );

    // After the failover: a deleted child comes back, an edited field the Flow sets is put back.
    const second = (await cluster.kube().get(shard(2)))!;
    await cluster.kube().delete(shard(2));
    await cluster.kube().patch(STS, { spec: { replicas: 9 } }, 'merge');
    await waitFor(
      async () => {
        const cm = await cluster.kube().get(shard(2));
        const s = await cluster.kube().get(STS);
        return (
          cm &&
          cm.metadata.uid !== second.metadata.uid &&
          (s?.spec as { replicas?: number } | undefined)?.replicas === 3
        );
      },
      { what: 'shard 2 recreated and replicas put back after the failover', timeoutMs: 20_000 },
    );

    // Pruning: one shard fewer and the extra switched off.
    await cluster.kube().patch(CACHE, { spec: { shards: [1, 2], extra: false } }, 'merge');
    await waitFor(
      async () =>
        !(await cluster.kube().get(shard(3))) && !(await cluster.kube().get(ref('v1', 'ConfigMap', 'fast-extra'))),
      { what: 'stale children pruned', timeoutMs: 20_000 },
    );
    expect(await cluster.kube().get(shard(1))).toBeDefined();
  });
});
