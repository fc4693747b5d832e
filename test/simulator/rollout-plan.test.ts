import { describe, expect, it } from 'vitest';
import { recreateStep, rollingStep, type ReplicaCounts } from '../../src/simulator/rollout-plan.js';

const rs = (spec: number, available = spec, pods = spec): ReplicaCounts => ({ spec, available, pods });

describe("rollout arithmetic (the Deployment controller's rolling.go)", () => {
  const limits = { want: 4, maxSurge: 1, maxUnavailable: 1 }; // 25 % of 4, rounded up and down

  it('a rolling update surges by maxSurge, then scales old down as availability allows, until only new remains', () => {
    let current = rs(0);
    let old = rs(4);
    const trace: string[] = [];
    for (let i = 0; i < 20 && !(current.spec === 4 && current.available === 4 && old.spec === 0); i++) {
      const step = rollingStep(limits, current, [old]);
      if (step.newReplicas !== undefined) current = { ...current, spec: step.newReplicas };
      if (step.oldReplicas)
        old = {
          ...old,
          spec: step.oldReplicas[0]!,
          available: Math.min(old.available, step.oldReplicas[0]!),
          pods: step.oldReplicas[0]!,
        };
      if (step.newReplicas === undefined && !step.oldReplicas)
        current = { ...current, available: current.spec, pods: current.spec }; // pods become ready
      trace.push(`${current.spec}/${current.available} ${old.spec}/${old.available}`);
      // Never more than want + maxSurge pods asked for, never fewer than want − maxUnavailable available.
      expect(current.spec + old.spec).toBeLessThanOrEqual(5);
      expect(current.available + old.available).toBeGreaterThanOrEqual(3);
    }
    expect(trace.at(-1)).toBe('4/4 0/0');
    expect(trace[0]).toBe('1/0 4/4');
  });

  it('unavailable old pods are removed first, at no cost in availability', () => {
    // 5 asked for, 3 must stay available, the new pod is not yet: room to remove one, an unavailable one.
    expect(rollingStep(limits, rs(1, 0), [rs(4, 2)])).toEqual({ oldReplicas: [3] });
    // Room for two (the new pod is available), both taken from the two unavailable old pods.
    expect(rollingStep(limits, rs(1, 1), [rs(4, 2)])).toEqual({ oldReplicas: [2] });
  });

  it('a plain scale moves the new ReplicaSet only', () => {
    expect(rollingStep(limits, rs(4), [])).toEqual({});
    expect(rollingStep({ ...limits, want: 6 }, rs(4), [])).toEqual({ newReplicas: 6 });
    expect(rollingStep({ ...limits, want: 2 }, rs(4), [])).toEqual({ newReplicas: 2 });
  });

  it('maxSurge and maxUnavailable both 0 still progress (maxUnavailable counts as 1)', () => {
    expect(rollingStep({ want: 2, maxSurge: 0, maxUnavailable: 0 }, rs(0), [rs(2)])).toEqual({ oldReplicas: [1] });
  });

  it('Recreate: old to 0, wait for its pods to go, then the new one to want', () => {
    expect(recreateStep(3, rs(0), [rs(3)])).toEqual({ oldReplicas: [0] });
    expect(recreateStep(3, rs(0), [rs(0, 0, 2)])).toEqual({});
    expect(recreateStep(3, rs(0), [rs(0, 0, 0)])).toEqual({ newReplicas: 3 });
  });
});
