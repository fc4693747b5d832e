// The names shared with the CLI and the web view (docs/rollout.md, "Rollout contract").

/** On each watched object: the generation of its Flow that last reconciled it. */
export const FLOW_GENERATION_ANNOTATION = 'flowops.io/flow-generation';
/**
 * On a watched object, written by the rollout controller: the generation it must be reconciled
 * by next. Its change is a cause (the object runs again); absent, the object keeps the generation
 * that last reconciled it.
 */
export const ROLLOUT_TARGET_ANNOTATION = 'flowops.io/rollout-target';

/** Controls on the Flow (annotations, so a Flow applied from Git never drifts from Git). */
export const ROLLOUT_PAUSED_ANNOTATION = 'flowops.io/rollout-paused';
export const ROLLOUT_PROMOTE_ANNOTATION = 'flowops.io/rollout-promote';
export const ROLLOUT_ABORT_ANNOTATION = 'flowops.io/rollout-abort';

/** On a ControllerRevision: the Flow it belongs to. */
export const REVISION_FLOW_LABEL = 'flowops.io/flow';

/** `<flow-name>-g<generation>`, e.g. `postgres-g3`. */
export const revisionName = (flow: string, generation: number): string => `${flow}-g${generation}`;

/** The generation an annotation names, or undefined when absent or not a positive integer. */
export function generationOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9]\d*$/.test(value)) return undefined;
  return Number(value);
}

/** On a FlowSource pinned by a rollback: who pinned it, and why (the FlowSource's history entry says the same). */
export const PINNED_BY_ANNOTATION = 'flowops.io/pinned-by';
export const PIN_REASON_ANNOTATION = 'flowops.io/pin-reason';
