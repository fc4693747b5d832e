import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { parse, parseAllDocuments } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/api/run-history.js';
import type { RunCauseTaken } from '../../src/controller/run-causes.js';
import type { KubeObject, ObjectRef } from '../../src/kube/types.js';
import { Queue } from 'bullmq';
import { BullQueue, DEFAULT_PREFIX } from '../../src/queue/bullmq-queue.js';
import { redisUrl } from '../../src/queue/redis-connection.js';
import { QueueRunCauses } from '../../src/controller/queue-run-causes.js';
import { CACHE_CRD, CACHE_FLOW, cache } from '../fixtures/cache-operator.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops } from './processes.js';

// Runs say why they ran when they go through the shared queue: the leader that saw the watch
// event marks its trigger beside the job, coalesced adds merge theirs, and the worker records
// them in the RunHistory and says SelfHealed when the run put a deleted child back.

const log = pino({ level: 'silent' });
const open: BullQueue[] = [];

afterEach(async () => {
  for (const q of open.splice(0)) {
    await q.consumer.stop();
    await q.producer.queue.obliterate({ force: true }).catch(() => undefined);
    await q.producer.close();
  }
});

describe('run triggers through BullMQ and a real Redis', () => {
  it("merges the triggers of coalesced adds into the one run; an add during the run is the next one's", async () => {
    const name = `triggers-${randomUUID()}`;
    const q = new BullQueue({ redisUrl: redisUrl(), name, prefix: 'flowops-test', log, lockDurationMs: 5000 });
    open.push(q);
    const causes = new QueueRunCauses(q.producer);
    const add = (trigger: 'child-deleted' | 'object-change' | 'child-status'): void => {
      causes.mark('k', trigger === 'child-status' ? 'child-status' : 'other', trigger);
      q.add('k');
    };
    add('child-deleted');
    add('object-change');
    add('child-deleted');
    await q.producer.queue.waitUntilReady();
    await waitFor(async () => (await q.producer.depthNow()) === 1, { what: 'one job for the key' });
    const taken: RunCauseTaken[] = [];
    let release: () => void = () => undefined;
    q.start(
      async (key) => {
        taken.push(await causes.take(key));
        if (taken.length === 1) await new Promise<void>((r) => (release = r));
      },
      { concurrency: 2 },
    );
    await waitFor(() => taken.length === 1, { what: 'the first run' });
    expect(taken[0]?.triggers.sort()).toEqual(['child-deleted', 'object-change']);
    expect(taken[0]?.cause).toBe('other');
    // While it runs: a child's status changes twice; the one run after it says so, and only that.
    add('child-status');
    add('child-status');
    const marked = async (): Promise<boolean> =>
      (await q.producer.redis.exists(`flowops-test:${name}:triggers:k`)) === 1;
    await waitFor(marked, { what: 'the mark written' });
    release();
    await waitFor(() => taken.length === 2, { what: 'the run after it' });
    expect(taken[1]).toEqual({ cause: 'child-status', triggers: ['child-status'] });
    // Nothing marked the key (a resync's add): a resync, as in one process.
    q.add('k');
    await waitFor(() => taken.length === 3, { what: 'an unmarked run' });
    expect(taken[2]).toEqual({ cause: 'other', triggers: ['resync'] });
  });
});

const cluster = apiServerFixture(async (kube) => {
  const files = ['flowops.io_flows.yaml', 'flowops.io_runhistories.yaml'];
  const crds = files.map((f) => readFileSync(join(ROOT, 'config', 'crd', f), 'utf8'));
  for (const crd of [...crds, CACHE_CRD]) {
    await kube.apply(parse(crd) as KubeObject, { fieldManager: 'test', force: true });
  }
  for (const [apiVersion, kind] of [
    ['example.com/v1', 'Cache'],
    ['flowops.io/v1', 'RunHistory'],
  ] as const) {
    await waitFor(
      async () =>
        kube.list(apiVersion, kind).then(
          () => true,
          () => false,
        ),
      { what: `${kind} served` },
    );
  }
});

const ref = (apiVersion: string, kind: string, name: string): ObjectRef => ({
  apiVersion,
  kind,
  name,
  namespace: 'default',
});
const CACHE = ref('example.com/v1', 'Cache', 'fast');
const HISTORY = ref('flowops.io/v1', 'RunHistory', 'cache-fast');
const SHARD = ref('v1', 'ConfigMap', 'fast-shard-2');

/** The queue has had no job waiting or running for three looks in a row. */
async function queueIdle(name: string): Promise<void> {
  const q = new Queue(name, { connection: { url: redisUrl() }, prefix: DEFAULT_PREFIX });
  let idle = 0;
  try {
    await waitFor(
      async () => {
        const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        idle = Object.values(counts).every((n) => n === 0) ? idle + 1 : 0;
        return idle >= 3;
      },
      { what: 'the queue idle', timeoutMs: 30_000, intervalMs: 200 },
    );
  } finally {
    await q.close();
  }
}

const history = async (): Promise<{ runs: Run[]; total: number }> => {
  const status = (await cluster.kube().get(HISTORY))?.status as { runs?: Run[]; total?: number } | undefined;
  return { runs: status?.runs ?? [], total: status?.total ?? 0 };
};
const runs = async (): Promise<Run[]> => (await history()).runs;

describe('run triggers in cluster mode: a leader and a worker', () => {
  it("the worker's runs record child-deleted with a SelfHealed Event, and object-change", async () => {
    const queue = `run-triggers-${randomUUID()}`;
    const common = ['--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0', '--queue', queue];
    const leaseName = `t-${randomUUID().slice(0, 8)}`;
    const lease = ['--lease-namespace', 'default', '--lease-name', leaseName];
    const leader = cluster.track(spawnFlowops('run', ['run', ...common, ...lease]));
    const worker = cluster.track(spawnFlowops('worker', ['worker', ...common, '--concurrency', '2']));
    await Promise.all([leader, worker].map(metricsAddressOf));

    const apply = (obj: KubeObject) => cluster.kube().apply(obj, { fieldManager: 'test', force: true });
    for (const doc of parseAllDocuments(CACHE_FLOW)) await apply(doc.toJSON() as KubeObject);
    await apply(JSON.parse(cache({ replicas: 1, shards: [1, 2], extra: false })) as KubeObject);
    const first = await waitFor(async () => (await runs())[0], { what: 'the first run recorded', timeoutMs: 30_000 });
    // The Flow's registration runs the objects it lists, and the object's own add enqueues it too.
    // The Cache is applied after the Flow, so the leader may list before it exists (the first run is
    // then object-change alone), or see both before the run starts (the two merge into one run, as
    // coalesced enqueues should). Either way the first run names only those two triggers.
    expect(first.triggers?.length).toBeGreaterThan(0);
    expect((first.triggers ?? []).every((t) => t === 'flow-change' || t === 'object-change')).toBe(true);

    const before = await waitFor(() => cluster.kube().get(SHARD), { what: 'shard 2 applied' });
    // The first runs settle (their own writes re-enqueue the Cache) before a child is deleted, so the
    // run that puts it back is the one the deletion enqueued, not one already under way.
    await queueIdle(queue);
    await cluster.kube().delete(SHARD);
    const healed = await waitFor(async () => (await runs()).find((r) => r.triggers?.includes('child-deleted')), {
      what: 'a run triggered by child-deleted',
      timeoutMs: 30_000,
    });
    expect(healed.outcome).toBe('Succeeded');
    const after = await cluster.kube().get(SHARD);
    expect(after?.metadata.uid).toBeDefined();
    expect(after?.metadata.uid).not.toBe(before.metadata.uid);
    const events = await waitFor(
      async () => {
        const selector = { namespace: 'default', fieldSelector: 'reason=SelfHealed' };
        const { items } = await cluster.kube().list('v1', 'Event', selector);
        return items.length ? items : undefined;
      },
      { what: 'a SelfHealed Event', timeoutMs: 20_000 },
    );
    const event = events[0] as KubeObject & { message?: string; involvedObject?: { kind?: string; name?: string } };
    expect(event.message).toBe('Flow cache-operator put back ConfigMap fast-shard-2: deleted');
    expect(event.involvedObject).toMatchObject({ kind: 'Cache', name: 'fast' });

    await queueIdle(queue);
    const { total } = await history();
    await cluster.kube().patch(CACHE, { spec: { replicas: 2 } }, 'merge');
    const changed = await waitFor(
      async () => {
        // A late run of the put-back child's own drift may come first: the change's run is the newest
        // one that names the change.
        const now = await history();
        const fresh = now.runs.slice(0, Math.max(0, now.total - total));
        return fresh.find((r) => r.triggers?.includes('object-change'));
      },
      { what: 'a run after the change that names it', timeoutMs: 30_000 },
    );
    expect(changed.triggers).toContain('object-change');
  }, 120_000);
});
