// Which generation of its Flow reconciles a watched object (docs/rollout.md): the newest, unless
// the newest spec has a rollout; then the one the rollout controller assigned (rollout-target),
// else the one that last reconciled it, else (a new object) the newest that has passed a stage.

import type { FlowSpec, RolloutStatus } from '../api/index.js';
import type { KubeObject } from '../kube/index.js';
import { FLOW_GENERATION_ANNOTATION, generationOf, ROLLOUT_TARGET_ANNOTATION } from '../api/rollout-names.js';

export interface FlowFacts {
  generation: number;
  spec: FlowSpec;
  rollout: RolloutStatus | undefined;
}

export function assignedGeneration(flow: FlowFacts, obj: KubeObject): number {
  if (!flow.spec.rollout) return flow.generation;
  const a = obj.metadata.annotations ?? {};
  const assigned = generationOf(a[ROLLOUT_TARGET_ANNOTATION]) ?? generationOf(a[FLOW_GENERATION_ANNOTATION]);
  if (assigned !== undefined && assigned <= flow.generation) return assigned;
  return newestPassed(flow);
}

/** The generation a new object starts on: the newest that has passed a stage of its rollout. */
export function newestPassed(flow: FlowFacts): number {
  const r = flow.rollout;
  if (!r) return flow.generation;
  const from = r.fromGeneration ?? r.generation;
  switch (r.state) {
    case 'Complete':
      return r.generation;
    case 'RolledBack':
    case 'Aborted':
      return from;
    default:
      return r.stages?.some((s) => s.state === 'Passed') ? r.generation : from;
  }
}

/** The rollout status a Flow object carries, if any. */
export function rolloutStatusOf(flow: KubeObject): RolloutStatus | undefined {
  const status = flow.status as { rollout?: RolloutStatus } | undefined;
  return status?.rollout;
}
