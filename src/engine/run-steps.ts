import type { Step } from '../api/index.js';
import { executorFor, StepError, type StepContext, type TemplateData } from '../executors/index.js';
import { KubeApiError } from '../kube/index.js';
import { renderValue, TemplateParseError, TemplateRenderError } from '../template/index.js';
import { truthy } from './truthy.js';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminal, maxRetries, retryDelayMs, shouldRetry, stepTimeoutMs } from './retry-policy.js';

export interface StepFailure {
  step: string;
  reason: string;
  message: string;
  statusCode?: number;
  exitCode?: number;
  attempts: number;
  /** Retrying cannot fix it (isTerminal): the object stalls instead of backing off. */
  terminal: boolean;
}

export type StepsOutcome = { ok: true } | { ok: false; failure: StepFailure };

/** What one step did in a run, for the run record on the object (flowops tree). */
export interface StepTrace {
  name: string;
  result: 'succeeded' | 'skipped' | 'failed';
  attempts: number;
  /** Wall time of the step with its retries and their backoff. */
  ms: number;
}

export interface StepObserver {
  /** Called after every attempt, for metrics and logs. */
  attempt?(step: Step, result: 'success' | 'failure' | 'skipped', ms: number, err?: StepError): void;
}

type BaseContext = Omit<StepContext, 'signal'>;

/**
 * Runs a step list in order: `when` may skip a step; outputs land in `data.Steps` for later steps;
 * each attempt has its own timeout; failures are retried by the step's errorHandling. Stops at the
 * first step that fails for good.
 */
export async function runSteps(
  steps: Step[],
  ctx: BaseContext,
  cancel: AbortSignal,
  observer: StepObserver = {},
  trace?: StepTrace[],
): Promise<StepsOutcome> {
  for (const step of steps) {
    const started = performance.now();
    if (step.when !== undefined) {
      let go: boolean;
      try {
        go = truthy(renderValue(step.when, ctx.data, { name: `${step.name}.when` }));
      } catch (e) {
        const err = asStepError(e, false);
        observer.attempt?.(step, 'failure', performance.now() - started, err);
        trace?.push({ name: step.name, result: 'failed', attempts: 1, ms: performance.now() - started });
        return { ok: false, failure: failureOf(step, err, 1) };
      }
      if (!go) {
        observer.attempt?.(step, 'skipped', 0);
        trace?.push({ name: step.name, result: 'skipped', attempts: 0, ms: performance.now() - started });
        continue;
      }
    }
    const limit = maxRetries(step.errorHandling);
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      // A timer and a listener of this attempt's own, both gone when it ends: AbortSignal.timeout
      // would keep a timer per run for the whole step timeout, and AbortSignal.any a dependent of
      // the long-lived cancel signal, so memory grew with the runs of the last few minutes.
      const attemptAbort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attemptAbort.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }, stepTimeoutMs(step));
      timer.unref();
      const onCancel = (): void => attemptAbort.abort(cancel.reason);
      if (cancel.aborted) onCancel();
      else {
        // One listener per attempt in flight (as many as the reconciles running at once), each removed
        // when its attempt ends: not a leak, so Node's warning past 10 listeners is off for this signal.
        setMaxListeners(0, cancel);
        cancel.addEventListener('abort', onCancel, { once: true });
      }
      const signal = attemptAbort.signal;
      try {
        const result = await executorFor(step.type).run(step as never, { ...ctx, signal });
        ctx.data.Steps[step.name] = { Outputs: result.outputs };
        observer.attempt?.(step, 'success', performance.now() - t0);
        trace?.push({ name: step.name, result: 'succeeded', attempts: attempt, ms: performance.now() - started });
        break;
      } catch (e) {
        const err = asStepError(e, timedOut && !cancel.aborted);
        observer.attempt?.(step, 'failure', performance.now() - t0, err);
        if (cancel.aborted || attempt > limit || !shouldRetry(step.errorHandling, err)) {
          trace?.push({ name: step.name, result: 'failed', attempts: attempt, ms: performance.now() - started });
          return { ok: false, failure: failureOf(step, err, attempt) };
        }
        ctx.log.info(
          { step: step.name, attempt, reason: err.reason, statusCode: err.statusCode, exitCode: err.exitCode },
          'step failed; retrying',
        );
        // An abort ends the wait early (it rejects); the loop then sees cancel.aborted.
        await sleep(retryDelayMs(step.errorHandling, attempt), undefined, { signal: cancel }).catch(() => undefined);
      } finally {
        clearTimeout(timer);
        cancel.removeEventListener('abort', onCancel);
      }
    }
  }
  return { ok: true };
}

function failureOf(step: Step, err: StepError, attempts: number): StepFailure {
  const f: StepFailure = {
    step: step.name,
    reason: err.reason,
    message: err.message,
    attempts,
    terminal: isTerminal(step.errorHandling, err),
  };
  if (err.statusCode !== undefined) f.statusCode = err.statusCode;
  if (err.exitCode !== undefined) f.exitCode = err.exitCode;
  return f;
}

/** Normalises whatever an executor threw into a StepError error handling can match on. */
export function asStepError(e: unknown, timedOut: boolean): StepError {
  if (timedOut)
    return new StepError(`step timed out${e instanceof Error ? `: ${e.message}` : ''}`, {
      reason: 'Timeout',
      cause: e,
    });
  if (e instanceof StepError) return e;
  if (e instanceof TemplateParseError || e instanceof TemplateRenderError)
    return new StepError(e.message, { reason: 'TemplateError', permanent: true });
  if (e instanceof KubeApiError) return new StepError(e.message, { reason: e.reason, statusCode: e.statusCode });
  const code = (e as { code?: string }).code;
  if (code && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)$/.test(code)) {
    return new StepError((e as Error).message, { reason: 'NetworkError' });
  }
  return new StepError(e instanceof Error ? e.message : String(e), { reason: 'StepFailed' });
}

export type { TemplateData };
