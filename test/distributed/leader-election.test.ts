import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { LeaderElector } from '../../src/kube/leader-election.js';
import { microTime } from '../../src/kube/micro-time.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

const log = pino({ level: 'silent' });
const timings = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };

let ts: TestServer;
let kube: KubeClient;

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
});
afterAll(async () => {
  kube.rest.close();
  await ts.stop();
});

const leaseRef = (name: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  namespace: 'default',
  name,
});

interface Candidate {
  elector: LeaderElector;
  leading: boolean;
  stop: AbortController;
  result: Promise<'lost' | 'stopped'>;
}

/** An elector with a record of whether its leader work is running, sampled by the tests. */
function candidate(name: string, overlap: { leaders: Set<string>; max: number }): Candidate {
  const stop = new AbortController();
  const c = { leading: false, stop } as Candidate;
  c.elector = new LeaderElector(kube, {
    namespace: 'default',
    name,
    ...timings,
    log,
    onStartedLeading: () => {
      c.leading = true;
      overlap.leaders.add(c.elector.identity);
      overlap.max = Math.max(overlap.max, overlap.leaders.size);
    },
    onStoppedLeading: () => {
      c.leading = false;
      overlap.leaders.delete(c.elector.identity);
    },
  });
  c.result = c.elector.run(stop.signal);
  return c;
}

describe('LeaderElector against the embedded API server', () => {
  it('elects exactly one of three; on a graceful stop the lease is released and another takes over at once', async () => {
    const overlap = { leaders: new Set<string>(), max: 0 };
    const cs = [candidate('three', overlap), candidate('three', overlap), candidate('three', overlap)];
    const leader = await waitFor(() => cs.find((c) => c.leading), { what: 'a leader' });
    await new Promise((r) => setTimeout(r, 600));
    expect(cs.filter((c) => c.leading)).toHaveLength(1);
    const lease = (await kube.get(leaseRef('three')))!;
    expect((lease.spec as { holderIdentity: string }).holderIdentity).toBe(leader.elector.identity);
    expect(lease.spec).toMatchObject({ leaseDurationSeconds: 2, renewTime: expect.stringMatching(/\.\d{6}Z$/) });

    const t0 = Date.now();
    leader.stop.abort();
    expect(await leader.result).toBe('stopped');
    const next = await waitFor(() => cs.find((c) => c !== leader && c.leading), { what: 'a new leader' });
    // Released, not expired: well under the lease duration.
    expect(Date.now() - t0).toBeLessThan(timings.leaseDurationMs);
    const after = (await kube.get(leaseRef('three')))!;
    expect((after.spec as { holderIdentity: string }).holderIdentity).toBe(next.elector.identity);
    for (const c of cs) c.stop.abort();
    await Promise.all(cs.map((c) => c.result));
    expect(overlap.max).toBe(1);
  });

  it('waits for a held lease to expire before taking it over', async () => {
    const renewed = Date.now();
    await kube.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'ghost', namespace: 'default' },
      spec: {
        holderIdentity: 'ghost',
        leaseDurationSeconds: 2,
        renewTime: microTime(renewed),
        acquireTime: microTime(renewed),
        leaseTransitions: 3,
      },
    } as KubeObject);
    const overlap = { leaders: new Set<string>(), max: 0 };
    const c = candidate('ghost', overlap);
    await waitFor(() => c.leading, { what: 'takeover', timeoutMs: 5000 });
    expect(Date.now() - renewed).toBeGreaterThanOrEqual(2000);
    const lease = (await kube.get(leaseRef('ghost')))!;
    expect(lease.spec).toMatchObject({ holderIdentity: c.elector.identity, leaseTransitions: 4 });
    c.stop.abort();
    await c.result;
  });

  it('gives up leadership when it cannot renew within the renew deadline, before the lease expires', async () => {
    const overlap = { leaders: new Set<string>(), max: 0 };
    const c = candidate('steal', overlap);
    await waitFor(() => c.leading, { what: 'leader' });
    // Someone else writes the lease (as if this leader's renewals had failed and it expired).
    const lease = (await kube.get(leaseRef('steal')))!;
    await kube.replace({
      ...lease,
      spec: { ...(lease.spec as object), holderIdentity: 'intruder', renewTime: microTime() },
    } as KubeObject);
    expect(await c.result).toBe('lost');
    expect(c.leading).toBe(false);
  });

  it('rejects timings that could let two leaders overlap', () => {
    expect(
      () =>
        new LeaderElector(kube, {
          namespace: 'default',
          name: 'x',
          leaseDurationMs: 1000,
          renewDeadlineMs: 1000,
          log,
          onStartedLeading: () => undefined,
        }),
    ).toThrow(/renewDeadline/);
  });
});
