import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/simulator.js';
import { startSimulatedCluster, type SimulatedCluster } from './harness.js';

interface Listed {
  items: Array<{ metadata: { name: string; resourceVersion: string } }>;
}

describe('simulator restart', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('a restarted simulator finds the settled workloads as they are: no duplicate pods, no writes', async () => {
    await c.kubectl.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    expect((await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s'])).code).toBe(0);
    await c.kubectl.ok(['create', 'job', 'once', '--image=busybox']);
    expect((await c.kubectl(['wait', '--for=condition=Complete', 'job/once', '--timeout=20s'])).code).toBe(0);
    const snapshot = async (): Promise<string[]> => {
      const all = await c.getJson<Listed>('deployments,replicasets,jobs,pods');
      return all.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
    };
    const before = await snapshot();

    await c.simulator.stop();
    c.simulator = await startSimulator({ kube: c.kube, log: pino({ level: 'silent' }), podStartMs: 50 });
    // The witness: a Deployment created after the restart has rolled out, so the restarted
    // simulator has been through its initial lists and the events that followed.
    await c.kubectl.ok(['create', 'deployment', 'probe', '--image=nginx']);
    expect((await c.kubectl(['rollout', 'status', 'deployment/probe', '--timeout=20s'])).code).toBe(0);
    const after = (await snapshot()).filter((s) => !s.startsWith('probe'));
    expect(after).toEqual(before);
  });
});
