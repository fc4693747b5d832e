import { type Registry, Gauge } from 'prom-client';
import { decodeKey } from '../../controller/keys.js';
import type { Logger } from '../../log/index.js';
import type { WorkQueue } from '../../queue/index.js';
import type { ShardedWatches } from '../leader-work.js';
import { ShardCoordinator, type ShardCoordinatorOptions } from './shard-coordinator.js';
import { filterOf, shardOf } from './shard-of.js';

export interface ShardedRunOptions extends Omit<ShardCoordinatorOptions, 'apply'> {
  /** The shared BullMQ queue's name: each shard's resync control queue is named after it. */
  queueName: string;
  /** The shared queue the watches enqueue on. */
  producer: Pick<WorkQueue, 'add'>;
  registry: Registry;
  /**
   * Starts the leader work (watches, resync; the singletons when `held` has shard 0) for these
   * shards; the returned stop must end every watch before it resolves.
   */
  start(watches: ShardedWatches, held: ReadonlySet<number>): Promise<{ stop(): Promise<void> }>;
  log: Logger;
}

/** The shard of a reconcile key: its watched object's namespace/name. */
export const shardOfKey = (key: string, shards: number): number => {
  const { resource } = decodeKey(key);
  return shardOf(resource.namespace, resource.name, shards);
};

/**
 * A `flowops run` replica with --shards N: the coordinator decides which shards it holds and the
 * leader work is restarted to match, stopped completely before a shard is given back. Every key
 * is checked against the coordinator on its way to the queue, so a replica that was paused past
 * its renew deadline (SIGSTOP, a long GC, a frozen VM) enqueues nothing for a shard that may
 * already be someone else's, even before its next round notices.
 */
export function shardedRun(opts: ShardedRunOptions): {
  coordinator: ShardCoordinator;
  run(stop: AbortSignal): Promise<void>;
} {
  const { shards, log } = opts;
  let work: { stop(): Promise<void> } | undefined;
  let current = new Set<number>();
  // Judged at each scrape, not set on change: a replica woken past its renew deadline (SIGSTOP)
  // must not report a shard before its next round has even noticed the loss.
  new Gauge({
    name: 'flowops_shard_held',
    help: '1 for each shard whose Lease this replica holds, renewed within the renew deadline, and watches.',
    labelNames: ['shard'],
    registers: [opts.registry],
    collect() {
      for (let i = 0; i < shards; i++) this.set({ shard: String(i) }, current.has(i) && coordinator.valid(i) ? 1 : 0);
    },
  });
  const coordinator: ShardCoordinator = new ShardCoordinator({
    ...opts,
    apply: async (next) => {
      if (sameSet(next, current)) return;
      // Stop first: the shards given up must have no watch left when their Leases go back.
      await work?.stop();
      work = undefined;
      // Until the start below succeeds nothing is watched; the next round retries a failed start.
      current = new Set();
      if (!next.size) return;
      const valid = (key: string): boolean => coordinator.valid(shardOfKey(key, shards));
      const watches: ShardedWatches = {
        filter: filterOf(next, shards),
        queue: { add: (key, seen) => (valid(key) ? opts.producer.add(key, seen) : undefined) },
        resyncs: [...next].map((i) => ({
          control: `${opts.queueName}-resync-shard-${i}`,
          keepKey: (key: string) => shardOfKey(key, shards) === i && coordinator.valid(i),
        })),
        singleton: next.has(0),
      };
      work = await opts.start(watches, next);
      current = new Set(next);
      log.info({ shards: [...current].sort((a, b) => a - b) }, 'watching shards');
    },
  });
  return { coordinator, run: (stop) => coordinator.run(stop) };
}

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
