import { describe, expect, it } from 'vitest';
import { maxRetries, retryDelayMs, shouldRetry } from '../../src/engine/retry-policy.js';
import { StepError } from '../../src/executors/types.js';

const http = (code: number) => new StepError(`HTTP ${code}`, { reason: 'HTTPError', statusCode: code });
const exit = (code: number) => new StepError(`exit ${code}`, { reason: 'ScriptFailed', exitCode: code });
const timeout = new StepError('timed out', { reason: 'Timeout' });

describe('retry policy', () => {
  it('retries transient failures by default and not client errors', () => {
    expect(shouldRetry(undefined, http(503))).toBe(true);
    expect(shouldRetry(undefined, http(429))).toBe(true);
    expect(shouldRetry(undefined, http(400))).toBe(false);
    expect(shouldRetry(undefined, http(404))).toBe(false);
    expect(shouldRetry(undefined, exit(1))).toBe(false);
    expect(shouldRetry(undefined, timeout)).toBe(true);
  });

  it('honours retryOn, failOn and the type', () => {
    expect(shouldRetry({ retryOn: [{ statusCode: 404 }] }, http(404))).toBe(true);
    expect(shouldRetry({ retryOn: [{ statusCode: 404 }] }, http(503))).toBe(false);
    expect(shouldRetry({ retryOn: [{ exitCode: 3 }] }, exit(3))).toBe(true);
    expect(shouldRetry({ failOn: [{ statusCode: 503 }] }, http(503))).toBe(false);
    expect(shouldRetry({ type: 'permanent' }, http(503))).toBe(false);
    expect(shouldRetry({ type: 'temporary' }, http(400))).toBe(true);
    expect(shouldRetry({ type: 'temporary', failOn: [{ statusCode: 400 }] }, http(400))).toBe(false);
    expect(shouldRetry(undefined, new StepError('bad template', { reason: 'TemplateError', permanent: true }))).toBe(
      false,
    );
    expect(maxRetries({ type: 'permanent', maxRetries: 5 })).toBe(0);
  });

  it('computes fixed, linear and exponential delays capped at maxDelay', () => {
    expect([1, 2, 3].map((a) => retryDelayMs({ backoff: 'fixed', retryDelay: '100ms' }, a))).toEqual([100, 100, 100]);
    expect([1, 2, 3].map((a) => retryDelayMs({ backoff: 'linear', retryDelay: '100ms' }, a))).toEqual([100, 200, 300]);
    expect(
      [1, 2, 3, 4].map((a) => retryDelayMs({ backoff: 'exponential', retryDelay: '1s', maxDelay: '5s' }, a)),
    ).toEqual([1000, 2000, 4000, 5000]);
  });
});
