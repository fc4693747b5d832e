// The four rollout controls (promote, pause, resume, abort) as the shared rollout contract defines
// them: annotations on the Flow, so a Flow applied from Git never drifts from Git and a control
// does not bump metadata.generation. `flowops rollout` and the web view's buttons both decide here
// whether a control means anything in the rollout's current state, and which merge patch makes it.

import type { RolloutStatus } from './rollout-status.js';

export const ROLLOUT_PAUSED_ANNOTATION = 'flowops.io/rollout-paused';
export const ROLLOUT_PROMOTE_ANNOTATION = 'flowops.io/rollout-promote';
export const ROLLOUT_ABORT_ANNOTATION = 'flowops.io/rollout-abort';
/** On each watched object: the generation of its Flow that last reconciled it. */
export const FLOW_GENERATION_ANNOTATION = 'flowops.io/flow-generation';

export const ROLLOUT_CONTROLS = ['promote', 'pause', 'resume', 'abort'] as const;
export type RolloutControl = (typeof ROLLOUT_CONTROLS)[number];

/** The past tense kubectl prints (`flow.flowops.io/db promoted`). */
export const CONTROL_DONE: Record<RolloutControl, string> = {
  promote: 'promoted',
  pause: 'paused',
  resume: 'resumed',
  abort: 'aborted',
};

/** Why a control was refused: no rollout at all, or one in a state where the control means nothing. */
export type RolloutControlErrorCode = 'NoRollout' | 'NotApplicable';

export class RolloutControlError extends Error {
  override readonly name = 'RolloutControlError';

  constructor(
    readonly code: RolloutControlErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface FlowForControl {
  namespace: string;
  name: string;
  annotations: Record<string, string>;
  rollout: RolloutStatus | undefined;
}

const ENDED = new Set(['Complete', 'Aborted', 'RolledBack']);

/** The merge patch for `control`, or a RolloutControlError saying why it means nothing now. */
export function controlPatch(
  control: RolloutControl,
  flow: FlowForControl,
  now: Date,
): { metadata: { annotations: Record<string, string | null> } } {
  const label = `Flow ${flow.namespace}/${flow.name}`;
  const r = flow.rollout;
  if (!r?.state)
    throw new RolloutControlError(
      'NoRollout',
      `${label} has no rollout (no status.rollout: spec.rollout is not set, or no change has been rolled out yet)`,
    );
  const state = r.state;
  const paused = flow.annotations[ROLLOUT_PAUSED_ANNOTATION] === 'true';
  const refuse = (why: string): never => {
    throw new RolloutControlError('NotApplicable', `${label}: cannot ${control}: ${why}`);
  };
  const stamp = now.toISOString();
  if (ENDED.has(state)) refuse(`its rollout of generation ${r.generation ?? '?'} is ${state}`);
  switch (control) {
    case 'promote': {
      const stage = r.stages?.find((s) => s.index === r.currentStage);
      if (state === 'Halted')
        refuse('the rollout is Halted; abort it, or commit a fix (a newer generation supersedes it)');
      if (stage?.state !== 'Paused')
        refuse(
          `stage ${(r.currentStage ?? 0) + 1} is ${stage?.state ?? 'not started'}, not paused; ` +
            'promote moves a paused stage on',
        );
      return { metadata: { annotations: { [ROLLOUT_PROMOTE_ANNOTATION]: stamp } } };
    }
    case 'pause':
      if (paused)
        refuse(`already paused (${ROLLOUT_PAUSED_ANNOTATION}: "true"); resume it with "flowops rollout resume"`);
      if (state === 'Halted') refuse('the rollout is Halted: no object moves anyway');
      return { metadata: { annotations: { [ROLLOUT_PAUSED_ANNOTATION]: 'true' } } };
    case 'resume':
      if (!paused)
        refuse(
          state === 'Paused'
            ? 'it is not paused by "flowops rollout pause" but by its stage; use "flowops rollout promote"'
            : 'it is not paused',
        );
      return { metadata: { annotations: { [ROLLOUT_PAUSED_ANNOTATION]: null } } };
    case 'abort':
      return { metadata: { annotations: { [ROLLOUT_ABORT_ANNOTATION]: stamp } } };
  }
}
