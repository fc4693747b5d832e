import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { isReady, startSimulatedCluster, type PodJson, type SimulatedCluster } from './harness.js';

interface ReplicaSetJson {
  metadata: {
    name: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    ownerReferences: Array<{ kind: string; name: string; controller: boolean }>;
  };
  spec: { replicas: number };
  status: {
    replicas: number;
    readyReplicas?: number;
    availableReplicas?: number;
    fullyLabeledReplicas?: number;
    observedGeneration: number;
  };
}

describe('simulated Deployment (ReplicaSets, pods, rollouts)', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('kubectl create deployment → rollout status returns, 3 pods Running and Ready, status as the controllers write it', async () => {
    await c.kubectl.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    expect(rollout.stdout).toContain('deployment "web" successfully rolled out');

    const deploy = await c.getJson<{
      metadata: { generation: number; annotations: Record<string, string> };
      status: Record<string, unknown>;
    }>('deployment', 'web');
    expect(deploy.status).toMatchObject({
      observedGeneration: deploy.metadata.generation,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect(deploy.status.conditions).toEqual([
      expect.objectContaining({ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }),
      expect.objectContaining({ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }),
    ]);
    expect(deploy.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');

    const { items: sets } = await c.getJson<{ items: ReplicaSetJson[] }>('replicasets');
    expect(sets).toHaveLength(1);
    const rs = sets[0]!;
    const hash = rs.metadata.labels['pod-template-hash']!;
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Deployment', name: 'web', controller: true }),
    ]);
    expect(rs.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    expect(rs.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      fullyLabeledReplicas: 3,
      observedGeneration: 1,
    });

    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(isReady(p)).toBe(true);
      expect(p.metadata.name).toMatch(new RegExp(`^web-${hash}-[a-z0-9]{5}$`));
      expect(p.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'ReplicaSet', name: rs.metadata.name, controller: true }),
      ]);
      expect(p.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(p.status?.conditions?.map((x) => x.type)).toEqual(
        expect.arrayContaining(['PodScheduled', 'Initialized', 'ContainersReady', 'Ready']),
      );
      expect(p.status?.containerStatuses?.[0]).toMatchObject({
        name: 'nginx',
        ready: true,
        started: true,
        image: 'docker.io/library/nginx:latest',
        imageID: expect.stringMatching(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/),
        containerID: expect.stringMatching(/^containerd:\/\/[0-9a-f]{64}$/),
        state: { running: { startedAt: expect.stringMatching(/Z$/) } },
      });
    }
    expect(new Set(pods.map((p) => p.status?.podIP)).size).toBe(3);

    // The Events `kubectl describe` shows, from the controllers that would have written them.
    const { items: events } = await c.getJson<{
      items: Array<{
        involvedObject: { kind: string };
        reason: string;
        message: string;
        source: { component: string };
      }>;
    }>('events');
    const seen = events.map((e) => `${e.source.component} ${e.involvedObject.kind} ${e.reason}: ${e.message}`);
    expect(seen).toContain(
      `deployment-controller Deployment ScalingReplicaSet: Scaled up replica set ${rs.metadata.name} from 0 to 3`,
    );
    expect(
      seen.filter((e) =>
        e.startsWith(`replicaset-controller ReplicaSet SuccessfulCreate: Created pod: ${rs.metadata.name}-`),
      ),
    ).toHaveLength(3);
  });

  it('kubectl set image → a new ReplicaSet, the old one scaled to 0, two revisions in rollout history', async () => {
    await c.kubectl.ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.27']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const { items: sets } = await c.getJson<{ items: ReplicaSetJson[] }>('replicasets');
    expect(sets).toHaveLength(2);
    const byRevision = Object.fromEntries(
      sets.map((rs) => [rs.metadata.annotations['deployment.kubernetes.io/revision'], rs]),
    );
    expect(byRevision['1']!.spec.replicas).toBe(0);
    expect(byRevision['2']!.spec.replicas).toBe(3);
    await waitFor(async () => (await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web')).items.length === 3, {
      what: 'old pods gone',
    });
    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web');
    expect(pods.every((p) => p.metadata.name.startsWith(byRevision['2']!.metadata.name) && isReady(p))).toBe(true);
    const history = await c.kubectl.ok(['rollout', 'history', 'deployment/web']);
    expect(history).toMatch(/^1\s/m);
    expect(history).toMatch(/^2\s/m);
    const deploy = await c.getJson<{ metadata: { annotations: Record<string, string> } }>('deployment', 'web');
    expect(deploy.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
  });

  it('kubectl rollout undo brings the first ReplicaSet back as revision 3', async () => {
    await c.kubectl.ok(['rollout', 'undo', 'deployment/web']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const { items: sets } = await c.getJson<{ items: ReplicaSetJson[] }>('replicasets');
    expect(
      sets.map((rs) => `${rs.metadata.annotations['deployment.kubernetes.io/revision']}:${rs.spec.replicas}`).sort(),
    ).toEqual(['2:0', '3:3']);
    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web');
    expect(pods.map((p) => `${String(p.status?.containerStatuses?.[0]?.image)} ${isReady(p)}`)).toEqual(
      Array(3).fill('docker.io/library/nginx:latest true'),
    );
  });

  it('scaling moves the numbers', async () => {
    await c.kubectl.ok(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":5}}']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const deploy = await c.getJson<{ status: Record<string, unknown> }>('deployment', 'web');
    expect(deploy.status).toMatchObject({ replicas: 5, updatedReplicas: 5, readyReplicas: 5, availableReplicas: 5 });
    expect((await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web')).items.filter(isReady)).toHaveLength(5);
  });

  it('paused: a template change waits for resume, a scale does not', async () => {
    await c.kubectl.ok(['rollout', 'pause', 'deployment/web']);
    await c.kubectl.ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.28']);
    await c.kubectl.ok(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":4}}']);
    const paused = await waitFor(
      async () => {
        const d = await c.getJson<{
          metadata: { generation: number };
          status: {
            observedGeneration: number;
            availableReplicas?: number;
            conditions: Array<{ type: string; reason: string }>;
          };
        }>('deployment', 'web');
        return d.status.observedGeneration === d.metadata.generation && d.status.availableReplicas === 4
          ? d
          : undefined;
      },
      { what: 'scaled to 4 while paused' },
    );
    expect(paused.status.conditions.find((x) => x.type === 'Progressing')?.reason).toBe('DeploymentPaused');
    expect((await c.getJson<{ items: ReplicaSetJson[] }>('replicasets')).items).toHaveLength(2); // no ReplicaSet for nginx:1.28 yet
    await c.kubectl.ok(['rollout', 'resume', 'deployment/web']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    // Back to the template the later tests expect (nginx, 5 replicas): revision 3's ReplicaSet again.
    await c.kubectl.ok(['rollout', 'undo', 'deployment/web']);
    await c.kubectl.ok(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":5}}']);
    expect((await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s'])).code).toBe(0);
  });

  it('a settled Deployment, ReplicaSet and pod are not written again when an event makes them reconcile', async () => {
    // An annotation is an event for every controller reading the object, but changes nothing they compute.
    const rvAfter = async (kind: string, name: string): Promise<string> =>
      (
        JSON.parse(await c.kubectl.ok(['annotate', kind, name, 'touched=yes', '-o', 'json'])) as {
          metadata: { resourceVersion: string };
        }
      ).metadata.resourceVersion;
    const rs = (await c.getJson<{ items: ReplicaSetJson[] }>('replicasets')).items.find((r) => r.spec.replicas === 5)!;
    const pod = (await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web')).items[0]!;
    // The ReplicaSet first: the Deployment controller copies a Deployment's annotations onto its
    // ReplicaSet (as the real one does), which is then already there.
    const replicaset = await rvAfter('replicaset', rs.metadata.name);
    const podRv = await rvAfter('pod', pod.metadata.name);
    await rvAfter('deployment', 'web');
    // kube-apiserver bumps a Deployment's generation when its annotations change, so the controller
    // writes status.observedGeneration once; after that nothing more is written.
    type DeploymentJson = {
      metadata: { resourceVersion: string; generation: number };
      status?: { observedGeneration?: number };
    };
    const settled = await waitFor(
      async () => {
        const d = await c.getJson<DeploymentJson>('deployment', 'web');
        return d.status?.observedGeneration === d.metadata.generation ? d.metadata.resourceVersion : undefined;
      },
      { what: 'the Deployment status following its new generation' },
    );
    const expected = { deployment: settled, replicaset, pod: podRv };
    // A witness instead of a sleep: the simulator handles events in the order the watches deliver
    // them, so once a Deployment created after the annotations has rolled out, those events were handled.
    await c.kubectl.ok(['create', 'deployment', 'probe', '--image=nginx']);
    expect((await c.kubectl(['rollout', 'status', 'deployment/probe', '--timeout=20s'])).code).toBe(0);
    const rvOf = async (kind: string, name: string): Promise<string> =>
      (await c.getJson<{ metadata: { resourceVersion: string } }>(kind, name)).metadata.resourceVersion;
    expect({
      deployment: await rvOf('deployment', 'web'),
      replicaset: await rvOf('replicaset', rs.metadata.name),
      pod: await rvOf('pod', pod.metadata.name),
    }).toEqual(expected);
    await c.kubectl.ok(['delete', 'deployment', 'probe']);
  });

  it('deleted with --cascade=orphan and created again: the ReplicaSet is adopted, its pods kept', async () => {
    const podNames = async (): Promise<string[]> =>
      (await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web')).items.map((p) => p.metadata.name).sort();
    const before = await podNames();
    const revisions = async (): Promise<string[]> =>
      (await c.getJson<{ items: ReplicaSetJson[] }>('replicasets')).items
        .map((rs) => `${rs.metadata.name}@${rs.metadata.annotations['deployment.kubernetes.io/revision']}`)
        .sort();
    const setsBefore = await revisions();
    await c.kubectl.ok(['delete', 'deployment', 'web', '--cascade=orphan']);
    await waitFor(
      async () =>
        (await c.getJson<{ items: ReplicaSetJson[] }>('replicasets')).items.every(
          (rs) => !rs.metadata.ownerReferences?.length,
        ),
      { what: 'ReplicaSets orphaned' },
    );
    await c.kubectl.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=5']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const sets = (await c.getJson<{ items: ReplicaSetJson[] }>('replicasets')).items;
    expect(
      sets.every((rs) => rs.metadata.ownerReferences?.[0]?.name === 'web' && rs.metadata.ownerReferences[0].controller),
    ).toBe(true);
    expect(await revisions()).toEqual(setsBefore);
    expect(await podNames()).toEqual(before);
  });

  it('Recreate: kubectl rollout restart replaces every pod, old ones gone before new ones are asked for', async () => {
    await c.kubectl.ok(['create', 'deployment', 'api', '--image=nginx', '--replicas=2']);
    await c.kubectl.ok([
      'patch',
      'deployment',
      'api',
      '--type=merge',
      '-p',
      '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}',
    ]);
    expect((await c.kubectl(['rollout', 'status', 'deployment/api', '--timeout=20s'])).code).toBe(0);
    const before = (await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=api')).items.map((p) => p.metadata.name);
    await c.kubectl.ok(['rollout', 'restart', 'deployment/api']);
    const rollout = await c.kubectl(['rollout', 'status', 'deployment/api', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const after = (await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=api')).items;
    expect(after).toHaveLength(2);
    expect(after.every(isReady)).toBe(true);
    expect(after.some((p) => before.includes(p.metadata.name))).toBe(false);
    // The scale-up of the new ReplicaSet is recorded only after the old one reached 0.
    const { items: events } = await c.getJson<{
      items: Array<{
        involvedObject: { name: string };
        reason: string;
        message: string;
        metadata: { resourceVersion: string };
      }>;
    }>('events');
    const scaling = events
      .filter((e) => e.involvedObject.name === 'api' && e.reason === 'ScalingReplicaSet')
      .map((e) => e.message);
    const down = scaling.findIndex((m) => / from 2 to 0$/.test(m));
    const up = scaling.findIndex((m, i) => i > 0 && / from 0 to 2$/.test(m));
    expect(down).toBeGreaterThanOrEqual(0);
    expect(up).toBeGreaterThan(down);
    await c.kubectl.ok(['delete', 'deployment', 'api']);
  });

  it('deleting the Deployment lets the garbage collector remove its ReplicaSets and pods', async () => {
    await c.kubectl.ok(['delete', 'deployment', 'web']);
    await waitFor(async () => (await c.getJson<{ items: unknown[] }>('replicasets')).items.length === 0, {
      what: 'ReplicaSets collected',
    });
    await waitFor(async () => (await c.getJson<{ items: unknown[] }>('pods', '-l', 'app=web')).items.length === 0, {
      what: 'pods collected',
    });
  });
});
