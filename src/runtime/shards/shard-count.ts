import { InvalidArgumentError } from 'commander';

export const MAX_SHARDS = 256;

/**
 * --shards / FLOWOPS_SHARDS: a whole number from 1 (one leader, as without sharding) to 256;
 * anything else is refused with what was given, where, and what is expected.
 */
export function parseShardCount(value: string, where = '--shards'): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SHARDS) {
    throw new InvalidArgumentError(
      `${where}: expected a whole number from 1 to ${MAX_SHARDS}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}
