import type { KubeClient } from '../kube/index.js';
import { type TenancyPolicy, QueueRunCauses } from '../controller/index.js';
import type { Logger } from '../log/index.js';
import type { FlowOpsMetrics } from '../metrics/index.js';
import { type BullProducer, Resync, type WorkQueue } from '../queue/index.js';
import { leaderFlows, type LeaderFlows } from './flow-parts.js';
import type { Runnable } from '../manager/index.js';

/** Something only the leader runs (controller-runtime's LeaderElectionRunnable); Git pollers plug in here. */
export type LeaderRunnable = Runnable;

export interface LeaderWorkOptions {
  kube: KubeClient;
  log: Logger;
  /** --default-service-account / --no-cross-namespace-refs. */
  tenancy?: TenancyPolicy;
  producer: BullProducer;
  metrics?: FlowOpsMetrics;
  resyncEveryMs?: number;
  sourceDir?: string;
  extra?: LeaderRunnable[];
  /** A sharded replica: the watches keep only these shards' objects; see runtime/shards. */
  shards?: ShardedWatches;
}

/** What a sharded replica's leader work is told (built by runtime/shards). */
export interface ShardedWatches {
  filter: { owns(namespace: string | undefined, name: string): boolean };
  /** Where watch events go instead of the producer: drops keys of shards no longer validly held. */
  queue: Pick<WorkQueue, 'add'>;
  /** One resync control queue per held shard, so the periodic resync moves with the shard. */
  resyncs: Array<{ control: string; keepKey(key: string): boolean }>;
  /** Shard 0 is held: the singletons run here, and the rollouts are judged here from every shard. */
  singleton: boolean;
}

export interface LeaderWork {
  flows: LeaderFlows;
  stop(): Promise<void>;
}

/**
 * What `flowops run` does while it holds the Lease: the singleton watches (Flows, CRDs, one
 * informer per watched kind) turning events into BullMQ jobs, and the resync that re-derives the
 * queue from them. No reconciles run here; the worker processes run them.
 */
export async function startLeaderWork(opts: LeaderWorkOptions, signal: AbortSignal): Promise<LeaderWork> {
  const { log } = opts;
  const flows = leaderFlows({
    ...(opts.tenancy ? { tenancy: opts.tenancy } : {}),
    kube: opts.kube,
    log,
    queue: opts.shards?.queue ?? opts.producer,
    // The workers' runs record what the watches here saw (the trigger of each enqueue).
    causes: new QueueRunCauses(opts.producer),
    ...(opts.shards ? { shard: opts.shards.filter, singleton: opts.shards.singleton } : {}),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.sourceDir ? { sourceDir: opts.sourceDir } : {}),
  });
  flows.start();
  const every = opts.resyncEveryMs ? { everyMs: opts.resyncEveryMs } : {};
  const resyncLog = log.child({ part: 'resync' });
  const resyncs = opts.shards
    ? opts.shards.resyncs.map((r) => {
        const keys = (): string[] => flows.watches.allKeys().filter((k) => r.keepKey(k));
        return new Resync({ producer: opts.producer, keys, log: resyncLog, control: r.control, ...every });
      })
    : [new Resync({ producer: opts.producer, keys: () => flows.watches.allKeys(), log: resyncLog, ...every })];
  for (const r of resyncs) await r.start();
  for (const r of opts.extra ?? []) await r.start(signal);
  return {
    flows,
    stop: async () => {
      await Promise.all(
        (opts.extra ?? []).map((r) =>
          r.stop().catch((err: unknown) => log.warn({ err, runnable: r.name }, 'leader runnable did not stop cleanly')),
        ),
      );
      for (const r of resyncs) await r.stop();
      await flows.stop();
    },
  };
}
