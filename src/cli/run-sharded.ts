import { defaultIdentity, type KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { Manager, stopOnly } from '../manager/index.js';
import type { FlowOpsMetrics } from '../metrics/index.js';
import type { BullProducer } from '../queue/index.js';
import type { LeaderWork, ShardedWatches } from '../runtime/index.js';
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
  // The held shards' work while it runs; `restarting` covers the gap while it is swapped for another set.
  let work: LeaderWork | undefined;
  let restarting = false;
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
      restarting = true;
      try {
        work = await o.startWork(stopWork.signal, singletons, watches);
      } finally {
        restarting = false;
      }
      const started = work;
      metrics.leader.set({ identity }, singletons ? 1 : 0);
      return {
        stop: async () => {
          metrics.leader.set({ identity }, 0);
          if (work === started) work = undefined;
          stopWork.abort();
          await started.stop();
        },
      };
    },
  });
  metrics.leader.set({ identity }, 0);
  // The parts in the order they start; the manager stops them in the reverse one (the shards
  // first, so every watch has ended and every Lease is back before the listeners close).
  const manager = new Manager(log);
  const server = await serveMetrics(flags, metrics, log, {
    // A replica holding no shard is ready (it serves the webhook and the view); one holding
    // shards once their watches have listed.
    ready: () => manager.ready(),
    beforeScrape: async () => metrics.queueDepth.set(await producer.depthNow()),
    ...(o.ui.route ? { routes: [o.ui.route] } : {}),
  });
  await manager.add(stopOnly('api-connections', () => o.kube.rest.close()));
  await manager.add(stopOnly('metrics', () => server.close()));
  await manager.add(stopOnly('ui', () => o.ui.close()));
  await manager.add(stopOnly('queue', () => producer.close()));
  let running: Promise<void> = Promise.resolve();
  await manager.add({
    name: 'shards',
    // The manager aborts this signal before it stops any part: the coordinator stops the watches
    // and gives the Leases back.
    start: (signal) => {
      log.info(
        { identity, shards: o.shards, leases: `${flags.leaseNamespace}/${flags.leaseName}-shard-*` },
        'competing for shards',
      );
      running = sharded.run(signal);
    },
    stop: async () => {
      await running;
    },
    ready: () => !restarting && (work === undefined || work.flows.synced()),
  });
  await manager.start();
  onShutdown(log, () => manager.stop());
  await running;
}
