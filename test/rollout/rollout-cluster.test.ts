import { randomUUID } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, type Proc } from '../distributed/processes.js';
import { generationOf, installShopKinds, isReady, listShops, rolloutOf, shopFlow, shops } from './fixtures.js';

// A rollout in cluster mode: two `flowops run` replicas (one leads and runs the rollout controller),
// two workers that reconcile each object by its assigned generation; the leader is killed with
// SIGKILL in the middle of the rollout and the other replica continues it from the cluster's state.

const LEASE = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
const cluster = apiServerFixture(installShopKinds);
const identityOf = (p: Proc): string | undefined => /"identity":"([^"]+)","lease"/.exec(p.stderr())?.[1];
const STAGES = `stages:
  - count: 2
    pause: { untilPromoted: true }
  - percent: 100
maxUnavailable: "100%"
`;

async function apply(text: string): Promise<void> {
  for (const doc of parseAllDocuments(text)) {
    const obj = doc.toJSON() as KubeObject | null;
    if (obj) await cluster.kube().apply(obj, { fieldManager: 'test', force: true });
  }
}

describe('a rollout in cluster mode, leader killed in the middle', () => {
  // It timed out under a whole `npm test` when a new leader judged the last stage on an informer
  // being replaced (its list of 0 objects): src/controller/watch-set.ts now hears only the newest.
  it('continues on the other replica from the Flow status and the objects annotations', {
    timeout: 240_000,
  }, async () => {
    const queue = `rollout-${randomUUID()}`;
    const ha = `ha-${randomUUID().slice(0, 6)}`;
    const leaseName = `r-${randomUUID().slice(0, 8)}`;
    const common = ['--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0', '--queue', queue];
    const runArgs = ['run', ...common, '--lease-namespace', 'default', '--lease-name', leaseName, ...LEASE];
    const [runA, runB] = [spawnFlowops('run-a', runArgs), spawnFlowops('run-b', runArgs)];
    const workerArgs = ['worker', ...common, '--concurrency', '4'];
    const [w1, w2] = [spawnFlowops('worker-1', workerArgs), spawnFlowops('worker-2', workerArgs)];
    for (const p of [runA, runB, w1, w2]) cluster.track(p);
    // A retried attempt starts from its own Flow and processes: this attempt's stop with it.
    onTestFinished(() => {
      for (const p of [runA, runB, w1, w2]) p.kill9();
    });
    await Promise.all([runA, runB, w1, w2].map(metricsAddressOf));

    await apply(shopFlow({ name: ha, suite: ha, version: 'v1', rollout: STAGES }));
    await apply(shops(ha, 10));
    const settled = (g: string) => async () => {
      const objs = await listShops(cluster.kube(), ha);
      return objs.length === 10 && objs.every((o) => generationOf(o) === g && isReady(o));
    };
    await waitFor(settled('1'), { what: '10 Shops Ready on generation 1', timeoutMs: 60_000 });
    await apply(shopFlow({ name: ha, suite: ha, version: 'v2', rollout: STAGES }));
    const paused = await waitFor(
      async () => {
        const r = await rolloutOf(cluster.kube(), ha);
        return r?.generation === 2 && r.state === 'Paused' ? r : undefined;
      },
      { what: 'stage 1 passed and paused', timeoutMs: 60_000 },
    );
    expect(paused.stages?.[0]?.state).toBe('Paused');
    expect((await listShops(cluster.kube(), ha)).filter((o) => generationOf(o) === '2')).toHaveLength(2);

    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'default', name: leaseName };
    const leaderId = await waitFor(
      async () =>
        ((await cluster.kube().get(lease))?.spec as { holderIdentity?: string } | undefined)?.holderIdentity ||
        undefined,
      {
        what: 'lease holder',
      },
    );
    const leader = await waitFor(() => [runA, runB].find((p) => identityOf(p) === leaderId), {
      what: 'the leader process',
    });
    const standby = leader === runA ? runB : runA;
    leader.kill9();
    await waitFor(() => standby.stderr().includes('"msg":"became leader"'), {
      what: 'the standby leading',
      timeoutMs: 60_000,
    });

    // Still paused under the new leader: nothing moved on its own.
    expect((await rolloutOf(cluster.kube(), ha))?.state).toBe('Paused');
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await cluster.kube().patch(
      { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: ha },
      {
        metadata: { annotations: { 'flowops.io/rollout-promote': now } },
      },
      'merge',
    );
    await waitFor(settled('2'), { what: '10 Shops Ready on generation 2 after the failover', timeoutMs: 60_000 });
    const done = await waitFor(
      async () => {
        const r = await rolloutOf(cluster.kube(), ha);
        return r?.state === 'Complete' ? r : undefined;
      },
      { what: 'rollout Complete', timeoutMs: 60_000 },
    );
    expect(done.stages?.map((s) => s.state)).toEqual(['Passed', 'Passed']);
  });
});
