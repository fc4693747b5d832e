import type { WorkloadCondition } from './types.js';
import { rfc3339 } from './pods.js';

/**
 * Sets a condition the way the workload controllers do: lastTransitionTime moves only when the
 * status flips, lastUpdateTime (Deployment) / lastProbeTime (Job) only when anything about it
 * changes; an unchanged condition is returned as it was, so recomputing it writes nothing.
 */
export function setCondition(
  existing: WorkloadCondition[] | undefined,
  next: Pick<WorkloadCondition, 'type' | 'status' | 'reason' | 'message'>,
  timeField: 'lastUpdateTime' | 'lastProbeTime' | undefined,
  now = Date.now(),
): WorkloadCondition {
  const old = existing?.find((c) => c.type === next.type);
  const at = rfc3339(now);
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message) return old;
  return {
    type: next.type,
    status: next.status,
    ...(timeField ? { [timeField]: at } : {}),
    lastTransitionTime: old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : at,
    ...(next.reason ? { reason: next.reason } : {}),
    ...(next.message ? { message: next.message } : {}),
  };
}
