import type { RolloutStatus } from '../api/index.js';

/**
 * status.rollout as a merge patch sends it: merged key by key, so each optional field the new
 * rollout status lacks is sent as null, and a new rollout never keeps the last one's stages,
 * failed objects or message.
 */
export function replacingRollout(r: RolloutStatus | undefined): Record<string, unknown> | null {
  if (!r) return null;
  const cleared = {
    fromGeneration: null,
    startedAt: null,
    message: null,
    stages: null,
    failed: null,
    lastPromote: null,
  };
  return { ...cleared, ...r };
}
