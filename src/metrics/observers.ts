import type { Step } from '../api/index.js';
import type { StepObserver } from '../engine/index.js';
import type { FlowOpsMetrics } from './registry.js';

/** What ReconcileHandler.handle reports after each reconcile. */
export interface ReconcileObserver {
  reconciled(flow: string, result: string, seconds: number): void;
}

export function reconcileMetrics(m: FlowOpsMetrics): ReconcileObserver {
  return {
    reconciled: (flow, result, seconds) => {
      m.reconcileTotal.inc({ flow, result });
      m.reconcileDuration.observe({ flow }, seconds);
    },
  };
}

/** Step attempts as flowops_step_duration_seconds{type,result} (skipped steps are not timed). */
export function stepMetrics(m: FlowOpsMetrics): StepObserver {
  return {
    attempt: (step: Step, result, ms) => {
      if (result !== 'skipped') m.stepDuration.observe({ type: step.type, result }, ms / 1000);
    },
  };
}
