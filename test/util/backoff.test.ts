import { describe, expect, it } from 'vitest';
import { exponentialBackoff } from '../../src/util/backoff.js';
import { backoffDelay, DEFAULT_BACKOFF } from '../../src/queue/types.js';
import { retryDelayMs } from '../../src/engine/retry-policy.js';

describe('the one backoff formula (client-go ItemExponentialFailureRateLimiter)', () => {
  it('waits the base first, doubles each time, and never passes the cap', () => {
    const opts = { baseMs: 100, maxMs: 1_000 };
    const delays = [0, 1, 2, 3, 4, 5, 6].map((n) => exponentialBackoff(n, opts));
    expect(delays).toEqual([100, 100, 200, 400, 800, 1_000, 1_000]);
    expect(exponentialBackoff(10_000, opts)).toBe(1_000);
  });

  it("is what the work queues and a step's exponential retries use", () => {
    expect(backoffDelay(3)).toBe(exponentialBackoff(3, DEFAULT_BACKOFF));
    const step = retryDelayMs({ retryDelay: '2s', maxDelay: '10s' }, 3);
    expect(step).toBe(exponentialBackoff(3, { baseMs: 2_000, maxMs: 10_000 }));
    // Fixed and linear delays are a step's own choice, capped the same way.
    expect(retryDelayMs({ retryDelay: '2s', maxDelay: '5s', backoff: 'linear' }, 4)).toBe(5_000);
  });
});
