import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { isReady, startSimulatedCluster, type PodJson, type SimulatedCluster } from './harness.js';

interface StatefulSetJson {
  metadata: { generation: number };
  status: {
    observedGeneration?: number;
    replicas: number;
    readyReplicas?: number;
    currentReplicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
  };
}

const statefulSet = (replicas: number, image = 'postgres:16'): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      // kubectl rollout status refuses a StatefulSet without this; kube-apiserver defaults it, the
      // embedded server does not yet (issue 13 item 3). The simulator treats it as the default.
      updateStrategy: { type: 'RollingUpdate' },
      serviceName: 'web',
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'db', image }] } },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  });

describe('simulated StatefulSet (ordinal pods, scaling, rolling update)', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  const pods = async (): Promise<PodJson[]> => (await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=web')).items;

  it('creates web-0..2 in order, each Ready, with bound claims; rollout status returns', async () => {
    await c.kubectl.ok(['apply', '-f', '-'], statefulSet(3));
    const rollout = await c.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const list = await pods();
    expect(list.map((p) => p.metadata.name).sort()).toEqual(['web-0', 'web-1', 'web-2']);
    expect(list.every(isReady)).toBe(true);
    const sts = await c.getJson<StatefulSetJson>('statefulset', 'web');
    expect(sts.status).toMatchObject({
      observedGeneration: sts.metadata.generation,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    });
    expect(sts.status.currentRevision).toMatch(/^web-[a-z0-9]+$/);
    expect(sts.status.updateRevision).toBe(sts.status.currentRevision);
    expect(list[0]!.metadata.labels).toMatchObject({
      'controller-revision-hash': sts.status.updateRevision,
      'statefulset.kubernetes.io/pod-name': list[0]!.metadata.name,
    });
    const claims = await c.getJson<{
      items: Array<{ metadata: { name: string }; status: { phase: string; capacity: { storage: string } } }>;
    }>('pvc');
    expect(claims.items.map((x) => x.metadata.name).sort()).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
    expect(claims.items.every((x) => x.status.phase === 'Bound' && x.status.capacity.storage === '1Gi')).toBe(true);
  });

  it('a changed template replaces every pod and moves currentRevision; rollout history lists 2 revisions', async () => {
    const before = (await c.getJson<StatefulSetJson>('statefulset', 'web')).status.currentRevision;
    await c.kubectl.ok(['apply', '-f', '-'], statefulSet(3, 'postgres:17'));
    const rollout = await c.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    const sts = await waitFor(
      async () => {
        const s = await c.getJson<StatefulSetJson>('statefulset', 'web');
        return s.status.currentRevision !== before &&
          s.status.currentRevision === s.status.updateRevision &&
          s.status.readyReplicas === 3
          ? s
          : undefined;
      },
      { what: 'rolling update complete' },
    );
    const list = await pods();
    expect(
      list.every((p) => p.metadata.labels?.['controller-revision-hash'] === sts.status.updateRevision && isReady(p)),
    ).toBe(true);
    expect(list.every((p) => p.status?.containerStatuses?.[0]?.image === 'docker.io/library/postgres:17')).toBe(true);
    const history = await c.kubectl.ok(['rollout', 'history', 'statefulset/web']);
    expect(history).toMatch(/^1\s/m);
    expect(history).toMatch(/^2\s/m);
  });

  it('kubectl rollout undo goes back to the first template, renumbered as revision 3', async () => {
    await c.kubectl.ok(['rollout', 'undo', 'statefulset/web']);
    const rollout = await c.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=20s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    await waitFor(
      async () =>
        (await pods()).every(
          (p) => p.status?.containerStatuses?.[0]?.image === 'docker.io/library/postgres:16' && isReady(p),
        ),
      { what: 'pods back on postgres:16' },
    );
    const revisions = await c.getJson<{ items: Array<{ metadata: { name: string }; revision: number }> }>(
      'controllerrevisions',
    );
    const sts = await c.getJson<StatefulSetJson>('statefulset', 'web');
    expect(revisions.items.find((r) => r.metadata.name === sts.status.updateRevision)?.revision).toBe(3);
    expect(revisions.items.map((r) => r.revision).sort()).toEqual([2, 3]);
  });

  it('scaled 3 → 1: web-2 and web-1 deleted, readyReplicas 1', async () => {
    await c.kubectl.ok(['patch', 'statefulset', 'web', '--type=merge', '-p', '{"spec":{"replicas":1}}']);
    await waitFor(async () => (await pods()).map((p) => p.metadata.name).join() === 'web-0', {
      what: 'only web-0 left',
    });
    const sts = await waitFor(
      async () => {
        const s = await c.getJson<StatefulSetJson>('statefulset', 'web');
        return s.status.observedGeneration === s.metadata.generation && s.status.replicas === 1 ? s : undefined;
      },
      { what: 'status after scale-down' },
    );
    expect(sts.status).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
    });
    // Claims outlive their pods (persistentVolumeClaimRetentionPolicy Retain, the default).
    expect((await c.getJson<{ items: unknown[] }>('pvc')).items).toHaveLength(3);
  });

  it('deleted with --cascade=orphan and created again: the new set adopts web-0 instead of replacing it', async () => {
    const before = (await pods())[0]!;
    await c.kubectl.ok(['delete', 'statefulset', 'web', '--cascade=orphan']);
    await waitFor(async () => !(await pods())[0]?.metadata.ownerReferences?.length, { what: 'web-0 orphaned' });
    await c.kubectl.ok(['apply', '-f', '-'], statefulSet(1));
    const sts = await c.getJson<StatefulSetJson & { metadata: { uid: string } }>('statefulset', 'web');
    const adopted = await waitFor(
      async () => {
        const p = (await pods())[0] as PodJson & {
          metadata: { uid: string; ownerReferences?: Array<{ uid: string }> };
        };
        return p?.metadata.ownerReferences?.[0]?.uid === sts.metadata.uid ? p : undefined;
      },
      { what: 'web-0 adopted' },
    );
    expect(adopted.metadata.uid).toBe((before as PodJson & { metadata: { uid: string } }).metadata.uid);
    await waitFor(async () => (await c.getJson<StatefulSetJson>('statefulset', 'web')).status?.readyReplicas === 1, {
      what: 'readyReplicas 1',
    });
  });

  it('deleting the StatefulSet lets the garbage collector remove its pods', async () => {
    await c.kubectl.ok(['delete', 'statefulset', 'web']);
    await waitFor(async () => (await pods()).length === 0, { what: 'pods collected' });
  });
});
