// The record of a watched object's last run, kept on the object (an annotation, beside the
// inventory, so any process and `flowops tree` can read it): which Flow and commit ran, each
// step's result and attempts, and the error. No times or durations — those are in the object's
// RunHistory (run-history.ts), the metrics and Events — so an unchanged run leaves the record, and
// the object, unchanged: no write.

import type { KubeObject } from '../kube/index.js';
import type { StepTrace } from './run-steps.js';

export const LAST_RUN_ANNOTATION = 'flowops.io/last-run';

export interface LastRun {
  /** `namespace/name` of the Flow. */
  flow: string;
  flowGeneration: number;
  revision?: string;
  outcome: 'Succeeded' | 'Failed' | 'Stalled';
  steps: Array<Omit<StepTrace, 'ms'>>;
  error?: { step: string; reason: string; message: string };
}

/** Messages are cut so that the annotation stays small (annotations share 256 KiB per object). */
const MAX_MESSAGE = 1024;

export function encodeLastRun(run: LastRun): string {
  const steps = run.steps.map(({ name, result, attempts }) => ({ name, result, attempts }));
  return JSON.stringify(
    run.error
      ? { ...run, steps, error: { ...run.error, message: run.error.message.slice(0, MAX_MESSAGE) } }
      : { ...run, steps },
  );
}

export function readLastRun(obj: KubeObject): LastRun | undefined {
  const raw = obj.metadata.annotations?.[LAST_RUN_ANNOTATION];
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<LastRun>;
    return typeof v.flow === 'string' && Array.isArray(v.steps) ? (v as LastRun) : undefined;
  } catch {
    return undefined;
  }
}
