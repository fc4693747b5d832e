// The fuzzer's only source of randomness: pure-rand's xoroshiro128+ from one printed seed, so the
// same seed gives the same cases on every machine and every run.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export class Prng {
  private readonly rng;

  constructor(readonly seed: number) {
    this.rng = xoroshiro128plus(seed);
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return n <= 1 ? 0 : uniformInt(this.rng, 0, n - 1);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) throw new Error('Prng.pick: no items to pick from');
    return item;
  }

  /** One of `items`, or undefined when there are none. */
  maybe<T>(items: readonly T[]): T | undefined {
    return items.length ? this.pick(items) : undefined;
  }

  chance(percent: number): boolean {
    return this.below(100) < percent;
  }
}
