import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startSimulatedCluster, type PodJson, type SimulatedCluster } from './harness.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

describe('simulated Job, PVC, LoadBalancer Service, DaemonSet', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('a Job completes: its pod Succeeded, status as the 1.31+ job controller writes it', async () => {
    await c.kubectl.ok(['create', 'job', 'x', '--image=busybox', '--', 'true']);
    const wait = await c.kubectl(['wait', '--for=condition=Complete', 'job/x', '--timeout=20s']);
    expect(wait.code, wait.stderr).toBe(0);
    const job = await c.getJson<{
      status: {
        succeeded: number;
        startTime: string;
        completionTime: string;
        conditions: Condition[];
        active?: number;
      };
    }>('job', 'x');
    expect(job.status.succeeded).toBe(1);
    expect(job.status.active).toBeUndefined();
    expect(job.status.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(job.status.completionTime)).toBeGreaterThanOrEqual(Date.parse(job.status.startTime));
    expect(job.status.conditions).toEqual([
      expect.objectContaining({
        type: 'SuccessCriteriaMet',
        status: 'True',
        reason: 'CompletionsReached',
        message: 'Reached expected number of succeeded pods',
      }),
      expect.objectContaining({
        type: 'Complete',
        status: 'True',
        reason: 'CompletionsReached',
        message: 'Reached expected number of succeeded pods',
      }),
    ]);
    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'job-name=x');
    expect(pods).toHaveLength(1);
    expect(pods[0]!.status?.phase).toBe('Succeeded');
    expect(pods[0]!.status?.containerStatuses?.[0]).toMatchObject({
      ready: false,
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
    });
    expect(pods[0]!.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Job', name: 'x', controller: true }),
    ]);
  });

  it('completions 3, parallelism 2: three pods succeed', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'batch', namespace: 'default' },
      spec: {
        completions: 3,
        parallelism: 2,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } },
      },
    };
    await c.kubectl.ok(['apply', '-f', '-'], JSON.stringify(job));
    const wait = await c.kubectl(['wait', '--for=condition=Complete', 'job/batch', '--timeout=20s']);
    expect(wait.code, wait.stderr).toBe(0);
    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'job-name=batch');
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.status?.phase === 'Succeeded')).toBe(true);
  });

  it('an Indexed Job runs one pod per index and reports completedIndexes', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'indexed', namespace: 'default' },
      spec: {
        completions: 3,
        parallelism: 3,
        completionMode: 'Indexed',
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } },
      },
    };
    await c.kubectl.ok(['apply', '-f', '-'], JSON.stringify(job));
    const wait = await c.kubectl(['wait', '--for=condition=Complete', 'job/indexed', '--timeout=20s']);
    expect(wait.code, wait.stderr).toBe(0);
    expect(
      (await c.getJson<{ status: { completedIndexes: string; succeeded: number } }>('job', 'indexed')).status,
    ).toMatchObject({ completedIndexes: '0-2', succeeded: 3 });
    const { items: pods } = await c.getJson<{
      items: Array<PodJson & { metadata: { annotations: Record<string, string> } }>;
    }>('pods', '-l', 'job-name=indexed');
    expect(pods.map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']).sort()).toEqual([
      '0',
      '1',
      '2',
    ]);
    expect(
      pods.every((p) =>
        new RegExp(`^indexed-${p.metadata.annotations['batch.kubernetes.io/job-completion-index']}-[a-z0-9]{5}$`).test(
          p.metadata.name,
        ),
      ),
    ).toBe(true);
  });

  it('deleting a Job lets the garbage collector remove its pods', async () => {
    await c.kubectl.ok(['delete', 'job', 'x']);
    await waitFor(async () => (await c.getJson<{ items: unknown[] }>('pods', '-l', 'job-name=x')).items.length === 0, {
      what: 'job pods collected',
    });
  });

  it('a bare pod (kubectl run) becomes Running and Ready', async () => {
    await c.kubectl.ok(['run', 'solo', '--image=redis:7']);
    const wait = await c.kubectl(['wait', '--for=condition=Ready', 'pod/solo', '--timeout=20s']);
    expect(wait.code, wait.stderr).toBe(0);
    const pod = await c.getJson<PodJson>('pod', 'solo');
    expect(pod.status).toMatchObject({
      phase: 'Running',
      hostIP: '127.0.0.1',
      podIP: expect.stringMatching(/^10\.244\./),
    });
    expect(pod.status?.containerStatuses?.[0]).toMatchObject({ image: 'docker.io/library/redis:7', restartCount: 0 });
  });

  it('a PVC becomes Bound with the storage it asked for', async () => {
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
    };
    await c.kubectl.ok(['apply', '-f', '-'], JSON.stringify(pvc));
    const wait = await c.kubectl(['wait', '--for=jsonpath={.status.phase}=Bound', 'pvc/data', '--timeout=20s']);
    expect(wait.code, wait.stderr).toBe(0);
    const got = await c.getJson<{ status: unknown }>('pvc', 'data');
    expect(got.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' } });
  });

  it('a LoadBalancer Service gets an ingress and loses it when it stops being one', async () => {
    const svc = (type: string): string =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'front', namespace: 'default' },
        spec: { type, selector: { app: 'front' }, ports: [{ port: 80 }] },
      });
    await c.kubectl.ok(['apply', '-f', '-'], svc('LoadBalancer'));
    const ingress = await waitFor(
      async () =>
        (await c.getJson<{ status?: { loadBalancer?: { ingress?: unknown[] } } }>('service', 'front')).status
          ?.loadBalancer?.ingress,
      { what: 'ingress' },
    );
    expect(ingress).toEqual([{ ip: '127.0.0.1', ipMode: 'VIP' }]);
    await c.kubectl.ok(['apply', '-f', '-'], svc('ClusterIP'));
    await waitFor(
      async () =>
        (await c.getJson<{ status?: { loadBalancer?: { ingress?: unknown[] } } }>('service', 'front')).status
          ?.loadBalancer?.ingress === undefined,
      { what: 'ingress removed' },
    );
  });

  it('a Service with a selector gets Endpoints listing its ready pods; they follow scaling and go with the Service', async () => {
    await c.kubectl.ok(['create', 'deployment', 'echo', '--image=nginx', '--replicas=2', '--port=8080']);
    expect((await c.kubectl(['rollout', 'status', 'deployment/echo', '--timeout=20s'])).code).toBe(0);
    await c.kubectl.ok(['expose', 'deployment', 'echo', '--port=80', '--target-port=8080']);
    type EndpointsJson = {
      subsets?: Array<{
        addresses?: Array<{ ip: string; targetRef: { kind: string; name: string } }>;
        ports?: Array<{ port: number; protocol: string }>;
      }>;
    };
    const ep = await waitFor(
      async () => {
        const r = await c.kubectl(['get', 'endpoints', 'echo', '-o', 'json']);
        const e = r.code === 0 ? (JSON.parse(r.stdout) as EndpointsJson) : undefined;
        return e?.subsets?.[0]?.addresses?.length === 2 ? e : undefined;
      },
      { what: 'Endpoints with 2 addresses' },
    );
    const { items: pods } = await c.getJson<{ items: PodJson[] }>('pods', '-l', 'app=echo');
    expect(ep.subsets![0]!.addresses!.map((a) => a.ip).sort()).toEqual(pods.map((p) => p.status!.podIP!).sort());
    expect(
      ep.subsets![0]!.addresses!.every((a) => a.targetRef.kind === 'Pod' && a.targetRef.name.startsWith('echo-')),
    ).toBe(true);
    expect(ep.subsets![0]!.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    await c.kubectl.ok(['patch', 'deployment', 'echo', '--type=merge', '-p', '{"spec":{"replicas":0}}']);
    await waitFor(async () => (await c.getJson<EndpointsJson>('endpoints', 'echo')).subsets === undefined, {
      what: 'no endpoints at 0 replicas',
    });
    await c.kubectl.ok(['delete', 'service', 'echo']);
    await waitFor(async () => (await c.kubectl(['get', 'endpoints', 'echo'])).code !== 0, {
      what: 'Endpoints removed with the Service',
    });
    await c.kubectl.ok(['delete', 'deployment', 'echo']);
  });

  it('a DaemonSet reports nothing scheduled for its current generation (no nodes)', async () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'busybox' }] } },
      },
    };
    await c.kubectl.ok(['apply', '-f', '-'], JSON.stringify(ds));
    const got = await waitFor(
      async () => {
        const d = await c.getJson<{ metadata: { generation: number }; status?: Record<string, unknown> }>(
          'daemonset',
          'agent',
        );
        return d.status?.observedGeneration === d.metadata.generation ? d : undefined;
      },
      { what: 'DaemonSet status' },
    );
    expect(got.status).toEqual({
      currentNumberScheduled: 0,
      desiredNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
      observedGeneration: 1,
    });
  });
});
