import type { KubeClient } from '../kube/client.js';
import type { TenancyPolicy } from '../controller/tenancy.js';
import type { Logger } from '../log/index.js';
import type { FlowOpsMetrics } from '../metrics/registry.js';
import type { BullProducer } from '../queue/bullmq-producer.js';
import { Resync } from '../queue/resync.js';
import { leaderFlows, type LeaderFlows } from './flow-parts.js';

/** Something only the leader runs (controller-runtime's LeaderElectionRunnable); Git pollers plug in here. */
export interface LeaderRunnable {
  name: string;
  start(signal: AbortSignal): void | Promise<void>;
  stop(): Promise<void>;
}

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
    queue: opts.producer,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.sourceDir ? { sourceDir: opts.sourceDir } : {}),
  });
  flows.start();
  const resync = new Resync({ producer: opts.producer, keys: () => flows.watches.allKeys(), log: log.child({ part: 'resync' }), ...(opts.resyncEveryMs ? { everyMs: opts.resyncEveryMs } : {}) });
  await resync.start();
  for (const r of opts.extra ?? []) await r.start(signal);
  return {
    flows,
    stop: async () => {
      await Promise.all((opts.extra ?? []).map((r) => r.stop().catch((err: unknown) => log.warn({ err, runnable: r.name }, 'leader runnable did not stop cleanly'))));
      await resync.stop();
      await flows.stop();
    },
  };
}
