import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { flowCrd } from '../../src/api/crd.js';
import type { KubeObject } from '../../src/kube/types.js';
import { waitFor } from '../helpers/wait.js';
import {
  apiServerFixture,
  leaderGauge,
  metricsAddressOf,
  spawnFlowops,
  stopGracefully,
  type Proc,
} from './processes.js';

// Short timings keep the test fast; the ratios are client-go's (renew < lease, retry ≪ renew).
const LEASE = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];

const cluster = apiServerFixture(async (kube) => {
  await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
});

function runReplica(name: string, leaseName: string, queue: string): Proc {
  const p = spawnFlowops(name, [
    'run',
    '--kubeconfig',
    cluster.kubeconfig(),
    '--metrics-listen',
    '127.0.0.1:0',
    '--lease-namespace',
    'default',
    '--lease-name',
    leaseName,
    '--queue',
    queue,
    ...LEASE,
  ]);
  return cluster.track(p);
}

async function holder(leaseName: string): Promise<string | undefined> {
  const lease = await cluster
    .kube()
    .get({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'default', name: leaseName });
  return (lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity || undefined;
}

const identityOf = (p: Proc): string | undefined =>
  /"msg":"campaigning for leadership"/.test(p.stderr())
    ? /"identity":"([^"]+)","lease"/.exec(p.stderr())?.[1]
    : undefined;

describe('flowops run: two replicas, one leader', () => {
  it('elects exactly one; after kill -9 of the leader the other takes over within the lease duration; never two at once', async () => {
    const leaseName = `flowops-${randomUUID().slice(0, 8)}`;
    const queue = `failover-${randomUUID()}`;
    const a = runReplica('run-a', leaseName, queue);
    const b = runReplica('run-b', leaseName, queue);
    const [ma, mb] = await Promise.all([metricsAddressOf(a), metricsAddressOf(b)]);
    const addr = new Map([
      [a, ma],
      [b, mb],
    ]);

    // Sample both gauges through the whole test: at no sample may both say "leader".
    let sampling = true;
    let bothLeading = 0;
    const sampler = (async () => {
      while (sampling) {
        const [ga, gb] = await Promise.all([leaderGauge(ma), leaderGauge(mb)]);
        if (ga === 1 && gb === 1) bothLeading++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const leaderId = await waitFor(() => holder(leaseName), { what: 'a lease holder', timeoutMs: 20_000 });
    const leader = await waitFor(() => [a, b].find((p) => identityOf(p) === leaderId), { what: 'the leader process' });
    const standby = leader === a ? b : a;
    await waitFor(async () => (await leaderGauge(addr.get(leader)!)) === 1, { what: 'leader gauge 1' });
    expect(await leaderGauge(addr.get(standby)!)).toBe(0);
    expect(identityOf(standby)).not.toBe(leaderId);

    const killedAt = Date.now();
    leader.kill9();
    await waitFor(async () => (await leaderGauge(addr.get(standby)!)) === 1, {
      what: 'standby takes over',
      timeoutMs: 10_000,
    });
    const failoverMs = Date.now() - killedAt;
    // Expiry is at most 3 s after the last renewal (which preceded the kill), plus one retry period.
    expect(failoverMs).toBeLessThan(3000 + 1500);
    expect(await holder(leaseName)).toBe(identityOf(standby));
    // The log line follows the Lease write; the pipe may deliver it a moment later.
    await waitFor(() => standby.stderr().includes('"msg":"became leader"'), {
      what: 'the standby logging its leadership',
    });

    sampling = false;
    await sampler;
    expect(bothLeading).toBe(0);

    // SIGTERM: leader work stops, the lease is released (empty holder), exit 0.
    expect(await stopGracefully(standby)).toEqual({ code: 0, signal: null });
    expect(await holder(leaseName)).toBeUndefined();
  });
});
