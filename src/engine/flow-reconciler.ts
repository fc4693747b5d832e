import type { FlowSpec } from '../api/flow.js';
import type { TemplateData } from '../executors/types.js';
import type { KubeClient } from '../kube/client.js';
import type { EventRecorder } from '../kube/events.js';
import type { KubeObject, ObjectRef } from '../kube/types.js';
import type { Logger } from '../log/index.js';
import { nowRfc3339 } from './conditions.js';
import { FLOW_FINALIZER, hasFinalizer, setFinalizer } from './finalizer.js';
import { setResourceReady } from './resource-status.js';
import { runSteps, type StepFailure, type StepObserver } from './run-steps.js';

/** A Flow as the engine runs it: the spec of its current generation and whether that spec is valid. */
export interface FlowDefinition {
  namespace: string;
  name: string;
  uid: string;
  generation: number;
  spec: FlowSpec;
  /** Folder relative chart / kustomize paths resolve against (a Git source checkout). */
  sourceDir?: string;
  /** The Git revision the Flow came from (its flowops.io/revision annotation), for log lines. */
  revision?: string;
}

export type ReconcileOutcome = 'success' | 'failure' | 'deleted' | 'gone' | 'suspended';

export interface ReconcileReport {
  outcome: ReconcileOutcome;
  failure?: StepFailure;
}

/** A run failed for good; the queue requeues the key with backoff. */
export class ReconcileFailedError extends Error {
  constructor(readonly failure: StepFailure) {
    super(`step "${failure.step}" failed: ${failure.message}`);
  }
}

export interface ReconcilerDeps {
  kube: KubeClient;
  events: EventRecorder;
  log: Logger;
  fieldManager: string;
  observer?: StepObserver;
  /** Reads the watched object from an informer cache (controller-runtime's cached client); falls back to a GET. */
  read?: (ref: ObjectRef, seen?: string) => KubeObject | undefined | Promise<KubeObject | undefined>;
}

/**
 * Runs one Flow against one watched object, in the order Flux's reconcilers use: read the object
 * (level-triggered: never trust the event), finish a deletion, keep the finalizer in step with
 * onDelete, run the steps, then report on the object (condition + Event).
 */
export class FlowReconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  /** `seen`: the resourceVersion the enqueuer saw, so a cache holding exactly it may answer the read. */
  async reconcile(flow: FlowDefinition, ref: ObjectRef, cancel: AbortSignal, seen?: string): Promise<ReconcileReport> {
    const log = this.deps.log.child({ flow: `${flow.namespace}/${flow.name}`, resource: `${ref.kind}/${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`, ...(flow.revision ? { revision: flow.revision } : {}) });
    const obj = (await this.deps.read?.(ref, seen)) ?? (await this.deps.kube.get(ref));
    if (!obj) return { outcome: 'gone' };
    if (obj.metadata.deletionTimestamp) return this.finishDeletion(flow, obj, cancel, log);
    if (flow.spec.suspend) return { outcome: 'suspended' };
    await setFinalizer(this.deps.kube, obj, flow.spec.onDelete !== undefined, this.deps.fieldManager);

    const steps = flow.spec.reconcile?.steps;
    if (!steps) {
      const failure: StepFailure = { step: 'pipeline', reason: 'NotImplemented', message: 'Flows with pipeline + target are run by the declarative pipeline engine, which this build does not include yet', attempts: 1 };
      await this.report(obj, flow, failure);
      throw new ReconcileFailedError(failure);
    }
    const data = templateData(flow, obj);
    const outcome = await runSteps(steps, this.context(flow, obj, data, log), cancel, this.deps.observer);
    if (outcome.ok) {
      await this.report(obj, flow, undefined);
      log.info({ steps: steps.length }, 'reconciled');
      return { outcome: 'success' };
    }
    log.warn({ step: outcome.failure.step, reason: outcome.failure.reason, err: outcome.failure.message }, 'reconcile failed');
    await this.runOnError(flow, obj, outcome.failure, cancel, log);
    await this.report(obj, flow, outcome.failure);
    throw new ReconcileFailedError(outcome.failure);
  }

  /** The object is being deleted: run onDelete once, then let it go. A Flow that is gone or broken still lets go. */
  private async finishDeletion(flow: FlowDefinition | undefined, obj: KubeObject, cancel: AbortSignal, log: ReconcilerDeps['log']): Promise<ReconcileReport> {
    if (!hasFinalizer(obj)) return { outcome: 'deleted' };
    const onDelete = flow?.spec.onDelete?.steps;
    if (flow && onDelete) {
      const outcome = await runSteps(onDelete, this.context(flow, obj, templateData(flow, obj), log), cancel, this.deps.observer);
      if (!outcome.ok) {
        await this.deps.events.record(obj, 'Warning', 'OnDeleteFailed', `onDelete step "${outcome.failure.step}" failed: ${outcome.failure.message}`);
        throw new ReconcileFailedError(outcome.failure);
      }
      await this.deps.events.record(obj, 'Normal', 'OnDeleteSucceeded', `Flow ${flow.name} ran its onDelete steps`);
    }
    await setFinalizer(this.deps.kube, obj, false, this.deps.fieldManager);
    log.info('deletion finished; finalizer removed');
    return { outcome: 'deleted' };
  }

  /** Releases an object whose Flow can no longer run (deleted or invalid): no onDelete, just the finalizer. */
  async release(ref: ObjectRef): Promise<void> {
    const obj = await this.deps.kube.get(ref);
    if (obj && hasFinalizer(obj, FLOW_FINALIZER)) await setFinalizer(this.deps.kube, obj, false, this.deps.fieldManager);
  }

  private async runOnError(flow: FlowDefinition, obj: KubeObject, failure: StepFailure, cancel: AbortSignal, log: ReconcilerDeps['log']): Promise<void> {
    const onError = flow.spec.onError?.steps;
    if (!onError) return;
    const data = templateData(flow, obj);
    data.Error = { step: failure.step, reason: failure.reason, message: failure.message };
    const outcome = await runSteps(onError, this.context(flow, obj, data, log), cancel, this.deps.observer);
    if (!outcome.ok) log.warn({ step: outcome.failure.step, err: outcome.failure.message }, 'onError step failed');
  }

  private async report(obj: KubeObject, flow: FlowDefinition, failure: StepFailure | undefined): Promise<void> {
    const { kube, events, fieldManager } = this.deps;
    if (!failure) {
      // A Normal Event marks the transition to Ready, not every (level-triggered) repeat of it.
      const transitioned = await setResourceReady(kube, obj, true, 'Reconciled', `Flow ${flow.name} reconciled`, fieldManager);
      if (transitioned) await events.record(obj, 'Normal', 'Reconciled', `Flow ${flow.name} reconciled`);
      return;
    }
    const message = `step "${failure.step}" failed: ${failure.message}`;
    await setResourceReady(kube, obj, false, failure.reason, message, fieldManager);
    await events.record(obj, 'Warning', 'ReconcileFailed', `Flow ${flow.name}: ${message}`);
  }

  private context(flow: FlowDefinition, obj: KubeObject, data: TemplateData, log: ReconcilerDeps['log']) {
    return {
      flow: { name: flow.name, namespace: flow.namespace, uid: flow.uid },
      resource: obj,
      data,
      kube: this.deps.kube,
      log,
      fieldManager: this.deps.fieldManager,
      ...(flow.sourceDir ? { sourceDir: flow.sourceDir } : {}),
    };
  }
}

function templateData(flow: FlowDefinition, obj: KubeObject): TemplateData {
  return { Resource: obj, Steps: {}, Now: nowRfc3339(), Flow: { name: flow.name, namespace: flow.namespace } };
}

