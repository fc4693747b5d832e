import type { ErrorHandling } from '../api/index.js';
import { parseDuration } from '../api/duration.js';
import { exponentialBackoff } from '../util/backoff.js';
import type { StepError } from '../executors/index.js';

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_DELAY_MS = 1000;
export const DEFAULT_MAX_DELAY_MS = 60_000;
export const DEFAULT_STEP_TIMEOUT_MS = 5 * 60_000;

/** Codes that are worth retrying without being told: throttling, timeouts, server-side trouble. */
const TRANSIENT_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

const matches = (list: ErrorHandling['retryOn'], err: StepError): boolean =>
  (list ?? []).some(
    (m) =>
      (m.statusCode !== undefined && m.statusCode === err.statusCode) ||
      (m.exitCode !== undefined && m.exitCode === err.exitCode),
  );

/**
 * Whether a failed attempt is tried again. `failOn` always wins and `permanent` never retries.
 * Failures without a code (a timeout, a lost connection) are transient and retried. For coded
 * failures, `retryOn`, when given, is the whole list of retryable codes; otherwise `temporary`
 * retries every failure and `retryable` (the default) retries throttling and 5xx answers.
 */
export function shouldRetry(eh: ErrorHandling | undefined, err: StepError): boolean {
  if (err.permanent) return false;
  if (matches(eh?.failOn, err)) return false;
  const type = eh?.type ?? 'retryable';
  if (type === 'permanent') return false;
  if (err.statusCode === undefined && err.exitCode === undefined) {
    return type === 'temporary' || err.reason === 'Timeout' || err.reason === 'NetworkError';
  }
  if (eh?.retryOn?.length) return matches(eh.retryOn, err);
  if (type === 'temporary') return true;
  if (err.statusCode !== undefined) return TRANSIENT_STATUS.has(err.statusCode);
  return false;
}

/** 4xx answers that say "try again later" rather than "this request is wrong". */
const RETRYABLE_CLIENT_STATUS = new Set([408, 409, 425, 429]);

/**
 * Whether a failure that ended a run is terminal: no later run of the same spec can fix it, so
 * the watched object stalls until its generation or the Flow changes. That is a template or
 * manifest the author must fix, a step of type permanent, a code in failOn, or a 4xx answer other
 * than 408/409/425/429 (unless retryOn names it). Everything else is retried with per-object backoff.
 */
export function isTerminal(eh: ErrorHandling | undefined, err: StepError): boolean {
  if (err.permanent || eh?.type === 'permanent' || matches(eh?.failOn, err)) return true;
  const code = err.statusCode;
  if (code === undefined || code < 400 || code >= 500) return false;
  return !RETRYABLE_CLIENT_STATUS.has(code) && !matches(eh?.retryOn, err);
}

/** Delay before retry number `attempt` (1-based): fixed, linear or exponential from retryDelay, capped at maxDelay. */
export function retryDelayMs(eh: ErrorHandling | undefined, attempt: number): number {
  const base = eh?.retryDelay ? parseDuration(eh.retryDelay) : DEFAULT_RETRY_DELAY_MS;
  const cap = eh?.maxDelay ? parseDuration(eh.maxDelay) : DEFAULT_MAX_DELAY_MS;
  const backoff = eh?.backoff ?? 'exponential';
  if (backoff === 'exponential') return exponentialBackoff(attempt, { baseMs: base, maxMs: cap });
  return Math.min(cap, backoff === 'fixed' ? base : base * attempt);
}

export function maxRetries(eh: ErrorHandling | undefined): number {
  return eh?.type === 'permanent' ? 0 : (eh?.maxRetries ?? DEFAULT_MAX_RETRIES);
}

export function stepTimeoutMs(step: {
  timeout?: string | undefined;
  errorHandling?: ErrorHandling | undefined;
}): number {
  const t = step.timeout ?? step.errorHandling?.timeout;
  return t ? parseDuration(t) : DEFAULT_STEP_TIMEOUT_MS;
}
