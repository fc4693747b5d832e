import { defaultIdentity } from '../kube/leader-election.js';
import type { KubeClient } from '../kube/client.js';
import type { Logger } from '../log/index.js';
import type { FlowOpsMetrics } from '../metrics/registry.js';
import type { BullProducer } from '../queue/bullmq-producer.js';
import type { LeaderWork, ShardedWatches } from '../runtime/leader-work.js';
import { shardedRun } from '../runtime/shards/index.js';
import { serveMetrics } from './cluster-flags.js';
import type { RunFlags } from './run-command.js';
import type { RunUi } from './run-ui.js';
import { onShutdown } from './shutdown.js';

export interface RunShardedOptions {
  flags: RunFlags;
  shards: number;
  kube: KubeClient;
  log: Logger;
  producer: BullProducer;
  metrics: FlowOpsMetrics;
  startWork(signal: AbortSignal, singletons: boolean, shards?: ShardedWatches): Promise<LeaderWork>;
  ui: RunUi;
}

/**
 * `flowops run --shards N` (N > 1): this replica takes its share of the shard Leases and watches
 * their objects; the holder of shard 0 also runs the singletons (Git pollers, Operators,
 * notifications), so flowops_leader is 1 there. Unlike the one-leader mode a lost shard does not
 * end the process: its watches stop, and the replica keeps renewing the others and competing.
 * SIGTERM stops every watch, then gives every Lease back, and exits 0.
 */
export async function runSharded(o: RunShardedOptions): Promise<void> {
  const { flags, log, metrics, producer } = o;
  const identity = defaultIdentity();
  const sharded = shardedRun({
    kube: o.kube,
    namespace: flags.leaseNamespace,
    group: flags.leaseName,
    shards: o.shards,
    identity,
    leaseDurationMs: flags.leaseDuration,
    renewDeadlineMs: flags.renewDeadline,
    retryPeriodMs: flags.retryPeriod,
    queueName: flags.queue,
    producer,
    registry: metrics.registry,
    log: log.child({ part: 'shards' }),
    start: async (watches, held) => {
      const stopWork = new AbortController();
      const singletons = held.has(0);
      const work = await o.startWork(stopWork.signal, singletons, watches);
      metrics.leader.set({ identity }, singletons ? 1 : 0);
      return {
        stop: async () => {
          metrics.leader.set({ identity }, 0);
          stopWork.abort();
          await work.stop();
        },
      };
    },
  });
  metrics.leader.set({ identity }, 0);
  const server = await serveMetrics(flags, metrics, log, {
    ready: () => true,
    beforeScrape: async () => metrics.queueDepth.set(await producer.depthNow()),
    ...(o.ui.route ? { routes: [o.ui.route] } : {}),
  });
  log.info(
    { identity, shards: o.shards, leases: `${flags.leaseNamespace}/${flags.leaseName}-shard-*` },
    'competing for shards',
  );
  const stop = new AbortController();
  const running = sharded.run(stop.signal);
  onShutdown(log, async () => {
    stop.abort();
    await running;
    await producer.close();
    await o.ui.close();
    await server.close();
    o.kube.rest.close();
  });
  await running;
}
