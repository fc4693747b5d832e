import { describe, expect, it } from 'vitest';
import { parseShardCount, shardOf } from '../../src/runtime/shards/index.js';

describe('shardOf: the stable hash of namespace/name', () => {
  it('gives the same shard in every process and version (FNV-1a of "ns/name" modulo N)', () => {
    // Fixed values: a change of the hash would move every object to another replica on upgrade.
    expect(shardOf('default', 'a0', 4)).toBe(shardOf('default', 'a0', 4));
    expect([shardOf('default', 'a0', 1000), shardOf('prod', 'db', 1000), shardOf(undefined, 'node-1', 1000)]).toEqual([
      fnv('default/a0') % 1000,
      fnv('prod/db') % 1000,
      fnv('/node-1') % 1000,
    ]);
    expect(shardOf('default', 'anything', 1)).toBe(0);
  });

  it('spreads names evenly enough that each of 4 shards gets 20–30% of 4,000', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const s = shardOf('default', `item-${i}`, 4);
      counts[s] = (counts[s] ?? 0) + 1;
    }
    for (const c of counts) {
      expect(c).toBeGreaterThan(800);
      expect(c).toBeLessThan(1200);
    }
  });
});

describe('parseShardCount', () => {
  it('takes 1 to 256 and refuses the rest naming where the value came from', () => {
    expect(parseShardCount('1')).toBe(1);
    expect(parseShardCount(' 256 ')).toBe(256);
    expect(() => parseShardCount('0')).toThrow('--shards: expected a whole number from 1 to 256, got "0"');
    expect(() => parseShardCount('2.5', 'FLOWOPS_SHARDS')).toThrow(
      'FLOWOPS_SHARDS: expected a whole number from 1 to 256, got "2.5"',
    );
    expect(() => parseShardCount('257')).toThrow('got "257"');
  });
});

/** The reference FNV-1a 32 (offset basis 2166136261, prime 16777619), written out with BigInt. */
function fnv(text: string): number {
  let h = 2166136261n;
  for (const ch of text) h = ((h ^ BigInt(ch.charCodeAt(0))) * 16777619n) % 2n ** 32n;
  return Number(h);
}
