// Turns the failures executors meet (template, Kubernetes API, abort) into StepErrors that the
// engine's error handling can match on: statusCode for API/HTTP answers, `permanent` for failures
// that no retry can fix.

import { UnknownKindError, KubeApiError } from '../kube/index.js';
import { TemplateParseError, TemplateRenderError } from '../template/index.js';
import { StepError } from './types.js';

/** Runs a template call; a template that does not parse or render is the author's to fix, never retried. */
export function templated<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw asTemplateError(err);
  }
}

export function asTemplateError(err: unknown): unknown {
  if (err instanceof TemplateParseError || err instanceof TemplateRenderError) {
    return new StepError(err.message, { reason: 'TemplateError', permanent: true, cause: err });
  }
  return err;
}

/** A failed Kubernetes call, carrying the server's status code and reason. `what` names the operation. */
export function kubeError(err: unknown, what: string): StepError {
  if (err instanceof StepError) return err;
  if (err instanceof KubeApiError) {
    return new StepError(`${what}: ${err.message}`, { reason: err.reason, statusCode: err.statusCode, cause: err });
  }
  // Not permanent: the CRD may be installed by an earlier step or another Flow a moment later.
  if (err instanceof UnknownKindError)
    return new StepError(`${what}: ${err.message}`, { reason: 'UnknownKind', cause: err });
  const message = err instanceof Error ? err.message : String(err);
  return new StepError(`${what}: ${message}`, { reason: 'KubeRequestFailed', cause: err });
}

/**
 * The step's signal fired. The engine aborts it for a step timeout or for a cancelled run; both
 * surface as reason `Timeout` so that error handling has one thing to match, and the message tells
 * them apart.
 */
export function abortError(signal: AbortSignal, what: string): StepError {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return new StepError(`${what}: ${timedOut ? 'timed out' : 'cancelled'}`, { reason: 'Timeout', cause: reason });
}

export function invalid(message: string, reason = 'InvalidStep'): StepError {
  return new StepError(message, { reason, permanent: true });
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
