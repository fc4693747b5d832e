/**
 * The shard of a watched object: FNV-1a (32 bit) of "namespace/name", modulo the shard count.
 * Stable across processes, versions and restarts (no seed), so every replica agrees without
 * talking; namespace and name never change for an object, so an object never changes shard.
 */
export function shardOf(namespace: string | undefined, name: string, shards: number): number {
  if (shards <= 1) return 0;
  let h = 0x811c9dc5;
  const text = `${namespace ?? ''}/${name}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % shards;
}

/** What a replica's watches keep: the objects and Flows of the shards it holds now. */
export interface ShardFilter {
  /** A watched object (or a Flow) whose namespace/name falls in a held shard. */
  owns(namespace: string | undefined, name: string): boolean;
}

export function filterOf(held: ReadonlySet<number>, shards: number): ShardFilter {
  return { owns: (namespace, name) => held.has(shardOf(namespace, name, shards)) };
}
