import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/api/duration.js';

describe('durations', () => {
  it('formats a measured wall time the way Flows write durations, and reads it back', () => {
    const cases: Array<[number, string]> = [
      [0, '0ms'],
      [0.4, '0ms'],
      [41.6, '42ms'],
      [999, '999ms'],
      [1000, '1s'],
      [1234, '1.23s'],
      [59_994, '59.99s'],
      [60_000, '1m'],
      [125_000, '2m5s'],
      [3_600_000, '60m'],
    ];
    for (const [ms, text] of cases) {
      expect(formatDuration(ms)).toBe(text);
      expect(Math.abs(parseDuration(text) - ms)).toBeLessThan(10);
    }
    expect(formatDuration(-5)).toBe('0ms');
  });
});
