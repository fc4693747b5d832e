// One run of a Flow against one watched object as the reconcile kit carries it from sub-step to
// sub-step (engine/flow-reconciler.ts), and what the run reports: the engine's side of the result
// set (src/reconcile/result.ts).

import type { FlowSpec, RunTrigger } from '../api/index.js';
import { placeTemplateErrors, type FlowFile } from '../api/template-positions.js';
import type { TemplateData } from '../executors/index.js';
import type { KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { failed, stalled, type ReconcileResult } from '../reconcile/index.js';
import type { ChildCollector, ChildVerdict } from './child-collector.js';
import type { ChildEntry } from './child-inventory.js';
import type { StepFailure, StepTrace } from './run-steps.js';

/** A Flow as the engine runs it: the spec of its current generation and whether that spec is valid. */
export interface FlowDefinition {
  namespace: string;
  name: string;
  uid: string;
  generation: number;
  spec: FlowSpec;
  /** Folder relative chart / kustomize paths resolve against (a Git source checkout). */
  sourceDir?: string;
  /** The Git revision the Flow came from (its flowops.io/revision annotation), stamped on children and logged. */
  revision?: string;
  /** The FlowSource the Flow came from (its flowops.io/source annotation), stamped on children. */
  source?: string;
  /** The file the Flow was defined in: template errors are reported at its lines. */
  file?: FlowFile;
}

export type ReconcileOutcome = 'success' | 'failure' | 'deleted' | 'gone' | 'suspended' | 'stalled';

export interface ReconcileReport {
  outcome: ReconcileOutcome;
  /** How the queue goes on with the key (src/reconcile/result.ts): a resync, a backoff, or never. */
  result: ReconcileResult;
  failure?: StepFailure;
  /** A failed run's message, as the Flow's status says it (lastError). */
  error?: string;
  /** After a successful run: whether every child is ready, and how many there are. */
  ready?: boolean;
  children?: number;
}

export interface RunStart {
  at: string;
  t0: number;
  /** What enqueued the run (object change, child deleted, manual…), recorded in its RunHistory entry. */
  triggers?: RunTrigger[];
}

/** What one run of a Flow against one object carries from sub-step to sub-step. */
export interface FlowRun {
  readonly flow: FlowDefinition;
  readonly obj: KubeObject;
  /** The object with the finalizer list the server now has. */
  current: KubeObject;
  readonly log: Logger;
  readonly cancel: AbortSignal;
  readonly fingerprint: string;
  /** The first failure since the last success or since the object or the Flow changed. */
  readonly newEpisode: boolean;
  readonly previous: ChildEntry[];
  readonly memoKey: string;
  readonly runPrint: string;
  readonly resyncMs: number | undefined;
  readonly children: ChildCollector;
  readonly data: TemplateData;
  readonly trace: StepTrace[];
  /** What enqueued this run; `manual` runs are recorded even when they change nothing. */
  readonly triggers: RunTrigger[];
  /** The last run's children a child-deleted trigger found gone: put back, they get a SelfHealed Event. */
  deleted: ChildEntry[];
  /** Applies sent (with a child cache, an unchanged one is not). */
  applies: number;
  /** No child cache: every apply is sent, so every run counts as a change. */
  sendsEveryApply: boolean;
  started?: RunStart;
  failure?: StepFailure;
  judged?: { verdicts: ChildVerdict[]; fields: Record<string, unknown> };
  inventory?: ChildEntry[];
  withoutFinalizer?: KubeObject;
  report?: Omit<ReconcileReport, 'result'>;
}

/** A failed run's message: what the Flow's status (lastError) and the queue's log say. */
export function runErrorMessage(failure: StepFailure): string {
  const how = failure.terminal ? 'failed for good' : 'failed';
  return `step "${failure.step}" ${how}: ${failure.message}`;
}

/** A terminal failure stalls the key; any other is an error the queue retries with backoff. */
function resultOf(failure: StepFailure): ReconcileResult {
  const message = runErrorMessage(failure);
  return failure.terminal ? stalled(failure.reason, message) : failed(failure.reason, message);
}

/** Ends a run's sub-steps with its failure (a template's position placed in the Flow's file). */
export function failedRun(r: FlowRun, failure: StepFailure): ReconcileResult {
  r.failure = { ...failure, message: placeTemplateErrors(failure.message, r.flow.name, r.flow.file) };
  return resultOf(r.failure);
}

/** A failure outside a run's sub-steps (a deletion's cleanup, a re-judge), as its report. */
export function failedReport(failure: StepFailure): ReconcileReport {
  return { outcome: 'failure', failure, error: runErrorMessage(failure), result: resultOf(failure) };
}
