// Scale-out past one leader: watched objects split into shards by a stable hash of their
// namespace/name, each shard a coordination.k8s.io Lease that `flowops run` replicas take and
// balance between them (docs/sharding.md).

export { shardOf, filterOf, type ShardFilter } from './shard-of.js';
export { ShardCoordinator, type ShardCoordinatorOptions } from './shard-coordinator.js';
export { shardedRun, shardOfKey, type ShardedRunOptions } from './sharded-watches.js';
export { parseShardCount, MAX_SHARDS } from './shard-count.js';
