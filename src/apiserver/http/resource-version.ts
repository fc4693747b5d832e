import type { Backend } from '../storage/index.js';
import { ApiError, errors } from './status.js';

/** How long a list for a resourceVersion the store has not reached waits for it (the watch cache's 3 s). */
const FRESHNESS_WAIT_MS = 3000;
const FRESHNESS_POLL_MS = 20;
const MAX_UINT64 = 18446744073709551615n;

/**
 * The `resourceVersion` query parameter as kube-apiserver reads it (strconv.ParseUint in
 * apimachinery's storage.APIObjectVersioner); undefined when absent or empty. A list and a watch
 * both answer 400 with the list's message for a value that is not one (kube-apiserver v1.34.4
 * answers a watch's with a bare 500; a 400 is what the value deserves and what a client does not retry).
 */
export function resourceVersionParam(q: URLSearchParams): number | undefined {
  const rv = q.get('resourceVersion');
  if (!rv) return undefined;
  const why = !/^\d+$/.test(rv) ? 'invalid syntax' : BigInt(rv) > MAX_UINT64 ? 'value out of range' : undefined;
  if (why) {
    throw errors.badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`,
    );
  }
  return Number(rv);
}

/**
 * A list at a resourceVersion newer than anything written waits briefly for it, then answers
 * what kube-apiserver's watch cache answers (a 504 Timeout the client may retry after a second).
 */
export async function awaitResourceVersion(store: Backend, rv: number): Promise<void> {
  const deadline = Date.now() + FRESHNESS_WAIT_MS;
  while (store.currentRevision() < rv) {
    if (Date.now() >= deadline) throw tooLargeResourceVersion(rv, store.currentRevision());
    await new Promise((r) => setTimeout(r, FRESHNESS_POLL_MS));
  }
}

function tooLargeResourceVersion(rv: number, current: number): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}
