// The Flow conditions a rollout sets: Ready=False RolloutHalted while halted or rolled back, and
// Rolling=True (Progressing|Paused) while it runs. Applied on top of what the Flow status writer
// concludes, by it and by the rollout controller, so neither undoes the other.

import { removeCondition, setCondition } from '../kube/conditions.js';
import type { Condition } from '../kube/index.js';
import type { RolloutStatus } from '../api/index.js';

export function rolloutConditions(
  conditions: Condition[] | undefined,
  r: RolloutStatus | undefined,
  generation: number,
): Condition[] {
  const g = { observedGeneration: generation };
  let c = conditions ?? [];
  if (!r) return removeCondition(c, 'Rolling');
  if (r.state === 'Halted' || r.state === 'RolledBack') {
    c = setCondition(c, {
      type: 'Ready',
      status: 'False',
      reason: 'RolloutHalted',
      message: (r.message ?? r.state).slice(0, 4096),
      ...g,
    });
    return removeCondition(c, 'Rolling');
  }
  if (r.state === 'Progressing' || r.state === 'Paused') {
    return setCondition(c, {
      type: 'Rolling',
      status: 'True',
      reason: r.state,
      message: (r.message ?? r.state).slice(0, 4096),
      ...g,
    });
  }
  return removeCondition(c, 'Rolling');
}
