import {
  placeTemplateErrors,
  parseDuration,
  type Run,
  type RunTrigger,
  formatDuration,
  FLOW_GENERATION_ANNOTATION,
} from '../api/index.js';
import { type StepContext, type TemplateData, AppliedCache, type LiveChild } from '../executors/index.js';
import {
  type KubeClient,
  type EventRecorder,
  type KubeObject,
  type ObjectRef,
  nowRfc3339,
  FLOW_FINALIZER,
  hasFinalizer,
  setFinalizer,
} from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { runReconcile, stalled, success, type ReconcileResult, type SubStep } from '../reconcile/index.js';
import { TemplateParseError, TemplateRenderError } from '../template/index.js';
import { ChildCollector, notReadyMessage, type ChildVerdict } from './child-collector.js';
import {
  encodeInventory,
  INVENTORY_ANNOTATION,
  readInventory,
  staleEntries,
  type ChildEntry,
} from './child-inventory.js';
import { encodeFailure, FAILURE_ANNOTATION, fingerprintOf, readFailure } from './failure-state.js';
import { deleteChildren, type PruneScope } from './prune-children.js';
import { writeOwnerReport, type ResourceVerdict } from './resource-status.js';
import { memoChild, runFingerprint, RunMemos, type RunMemo } from './run-memo.js';
import { encodeLastRun, LAST_RUN_ANNOTATION, type LastRun } from './last-run.js';
import type { RunHistoryWriter } from './run-history.js';
import { runSteps, type StepFailure, type StepObserver, type StepTrace } from './run-steps.js';
import { projectStatus } from './status-projection.js';
import {
  failedReport,
  failedRun,
  runErrorMessage,
  type FlowDefinition,
  type FlowRun,
  type ReconcileReport,
  type RunStart,
} from './flow-run.js';

export type { FlowDefinition, ReconcileOutcome, ReconcileReport } from './flow-run.js';

export interface ReconcilerDeps {
  kube: KubeClient;
  events: EventRecorder;
  log: Logger;
  fieldManager: string;
  observer?: StepObserver;
  /**
   * The ServiceAccount (in the Flow's namespace) a Flow without serviceAccountName acts as
   * (`--default-service-account`): with it set, nothing runs with FlowOps' own rights.
   */
  defaultServiceAccount?: string;
  /** `--no-cross-namespace-refs`: a Flow's steps write only in its own namespace. */
  ownNamespaceOnly?: boolean;
  /** Reads the watched object from an informer cache (controller-runtime's cached client); falls back to a GET. */
  read?: (ref: ObjectRef, seen?: string) => KubeObject | undefined | Promise<KubeObject | undefined>;
  /** Keeps each watched object's last runs (its RunHistory). */
  history?: RunHistoryWriter;
  /** What templates see as `{{ .Now }}` (`flowops render` pins it so golden files stay stable); default the clock. */
  now?: () => string;
  /**
   * The children as the child informers hold them (where the watches run: `flowops up`). With it,
   * an apply that would change nothing is not sent, and a child's status change re-judges
   * readiness without running the steps (RunCause 'child-status').
   */
  liveChild?: LiveChild;
}

/**
 * Why a key was run. 'child-status': only a child's status changed, so the last run's steps stand
 * unless the object, the Flow or a child moved since (run-memo.ts); anything else runs the steps.
 */
export type RunCause = 'child-status' | 'other';

type Log = ReconcilerDeps['log'];

/**
 * Runs one Flow against one watched object, in the order Flux's reconcilers use: read the object
 * (level-triggered: never trust the event), finish a deletion, skip a stalled object, keep the
 * finalizer in step with what deletion needs, run the steps, prune the children no longer
 * rendered, judge the children's readiness, then report on the object (inventory, status, Event).
 */
export class FlowReconciler {
  private readonly impersonating = new Map<string, KubeClient>();
  private readonly applied = new AppliedCache();
  private readonly memos = new RunMemos();

  constructor(private readonly deps: ReconcilerDeps) {}

  /** `seen`: the resourceVersion the enqueuer saw, so a cache holding exactly it may answer the read. */
  async reconcile(
    flow: FlowDefinition,
    ref: ObjectRef,
    cancel: AbortSignal,
    seen?: string,
    cause: RunCause = 'other',
    triggers: RunTrigger[] = [],
  ): Promise<ReconcileReport> {
    const log = this.deps.log.child({
      flow: `${flow.namespace}/${flow.name}`,
      resource: `${ref.kind}/${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`,
      ...(flow.revision ? { revision: flow.revision } : {}),
    });
    const obj = (await this.deps.read?.(ref, seen)) ?? (await this.deps.kube.get(ref));
    if (!obj) return { outcome: 'gone', result: success() };
    if (obj.metadata.deletionTimestamp) return this.finishDeletion(flow, obj, cancel, log);
    if (flow.spec.suspend) return { outcome: 'suspended', result: success() };
    const fingerprint = fingerprintOf(obj, flow);
    const episode = readFailure(obj);
    // A terminal failure waits for a change of the object or the Flow, whoever enqueues it.
    if (episode?.terminal && episode.fingerprint === fingerprint) {
      const message = `step "${episode.step}" failed for good; waiting for a change`;
      return { outcome: 'stalled', result: stalled(episode.reason, message) };
    }
    const memoKey = `${flow.namespace}/${flow.name}\u001f${obj.metadata.uid ?? ''}`;
    const runPrint = runFingerprint(obj, flow);
    const resyncMs = flow.spec.resyncInterval ? parseDuration(flow.spec.resyncInterval) : undefined;
    const live = this.deps.liveChild;
    if (cause === 'child-status' && live && !readsLiveObjects(flow)) {
      const standing = this.memos.standing(memoKey, runPrint, resyncMs, live);
      if (standing) return this.rejudge(flow, obj, standing.memo, standing.children, log);
    }
    // Whatever follows may change what the memo stands for: a failure leaves none.
    this.memos.delete(memoKey);
    const run: FlowRun = {
      flow,
      obj,
      current: obj,
      log,
      cancel,
      fingerprint,
      newEpisode: episode === undefined || episode.fingerprint !== fingerprint,
      previous: readInventory(obj),
      memoKey,
      runPrint,
      resyncMs,
      children: new ChildCollector(),
      data: templateData(flow, obj, this.deps.now),
      trace: [],
      triggers,
      deleted: [],
      applies: 0,
      sendsEveryApply: true,
    };
    const result = await runReconcile(this.subSteps, run, (r, res) => this.summarise(r, res));
    return { ...(run.report ?? { outcome: 'failure' }), result };
  }

  /**
   * A run's sub-steps, in Flux's order; each fills the run's state or ends the list with a result,
   * and the summary writes the one report on the object (src/reconcile/runner.ts).
   */
  private readonly subSteps: ReadonlyArray<SubStep<FlowRun>> = [
    // Added before the steps (what they create must not outlive a deletion that skips cleanup);
    // removed only after a successful run has shown it is no longer needed (the prune sub-step).
    {
      name: 'finalizer',
      run: async (r) => {
        if (needsFinalizer(r.flow, r.previous)) r.current = await this.withFinalizer(r.flow, r.obj, true);
        return undefined;
      },
    },
    { name: 'steps', run: (r) => this.runFlowSteps(r) },
    { name: 'judge', run: async (r) => this.judge(r) },
    { name: 'prune', run: (r) => this.pruneChildren(r) },
  ];

  private async runFlowSteps(r: FlowRun): Promise<ReconcileResult | undefined> {
    const { flow, obj, data, log } = r;
    const steps = flow.spec.reconcile?.steps;
    if (!steps) {
      const message = 'Flows with pipeline + target are run by the declarative pipeline engine, not as steps';
      return failedRun(r, { step: 'pipeline', reason: 'NotImplemented', message, attempts: 1, terminal: true });
    }
    r.started = { at: nowRfc3339(), t0: performance.now(), triggers: r.triggers };
    if (r.triggers.includes('child-deleted')) r.deleted = await this.deletedChildren(r);
    const base = this.context(flow, obj, data, log);
    r.sendsEveryApply = !base.applied;
    const ctx = base.applied ? { ...base, applied: { ...base.applied, sent: () => void r.applies++ } } : base;
    const outcome = await runSteps(steps, { ...ctx, children: r.children }, r.cancel, this.deps.observer, r.trace);
    if (!outcome.ok) return failedRun(r, outcome.failure);
    return undefined;
  }

  /**
   * A child's deletion enqueued this run: the last run's children that are gone now (asked only
   * then: a cache still listing at start-up lacks them all). The child informers' cache answers
   * where the watches run here; a worker asks the server, a few at a time.
   */
  private async deletedChildren(r: FlowRun): Promise<ChildEntry[]> {
    const live = this.deps.liveChild;
    if (live) return r.previous.filter((e) => !live(childRef(e)));
    const kube = this.kubeFor(r.flow);
    const gone: ChildEntry[] = [];
    for (let i = 0; i < r.previous.length; i += 16) {
      const chunk = r.previous.slice(i, i + 16);
      // A child this identity may not read is not called deleted.
      const present = await Promise.all(
        chunk.map((e) =>
          kube.get(childRef(e)).then(
            (o) => o !== undefined,
            () => true,
          ),
        ),
      );
      gone.push(...chunk.filter((_, j) => !present[j]));
    }
    return gone;
  }

  private judge(r: FlowRun): ReconcileResult | undefined {
    const judged = judgeChildren(r.flow, r.children, r.data);
    if ('failure' in judged) return failedRun(r, { ...judged.failure, terminal: true });
    r.judged = judged;
    return undefined;
  }

  private async pruneChildren(r: FlowRun): Promise<undefined> {
    r.inventory = await this.prune(r.flow, r.obj, r.previous, r.children.entries(r.obj.metadata.uid), r.log);
    r.withoutFinalizer = r.current;
    r.current = await this.withFinalizer(r.flow, r.current, needsFinalizer(r.flow, r.inventory));
    return undefined;
  }

  /** The one report of a run on its object: a failure's, or a success's with its resync time. */
  private async summarise(r: FlowRun, result: ReconcileResult): Promise<ReconcileResult> {
    if (r.failure) {
      await this.reportFailure(r, r.failure);
      r.report = { outcome: 'failure', failure: r.failure, error: runErrorMessage(r.failure) };
      return result;
    }
    // An exception nothing foresaw (a write refused): it goes on to the queue, nothing is reported.
    if (result.kind !== 'success') return result;
    const { flow, obj, judged, inventory, log } = r;
    // Invariant: every sub-step passed, so the judge and the prune have filled these.
    if (!judged || !inventory) throw new Error('flow run summarised as a success without its verdict');
    const verdict = verdictOf(flow, judged.verdicts, obj.metadata.namespace, judged.fields);
    const report = await writeOwnerReport(
      this.kubeFor(flow),
      obj,
      {
        [INVENTORY_ANNOTATION]: inventory.length ? encodeInventory(inventory) : null,
        [FAILURE_ANNOTATION]: null,
        [LAST_RUN_ANNOTATION]: encodeLastRun(lastRunOf(flow, 'Succeeded', r.trace)),
        [FLOW_GENERATION_ANNOTATION]: String(flow.generation),
      },
      verdict,
      this.deps.fieldManager,
    );
    // A Normal Event marks the transition to Ready, not every (level-triggered) repeat of it.
    if (report.transitioned && verdict.ready) await this.recordReady(flow, obj);
    const healed = r.deleted.filter((d) => inventory.some((e) => sameChild(e, d)));
    if (healed.length) {
      const names = healed
        .slice(0, 5)
        .map((e) => `${e.kind} ${e.name}`)
        .join(', ');
      const more = healed.length > 5 ? ` and ${healed.length - 5} more` : '';
      await this.deps.events.record(obj, 'Normal', 'SelfHealed', `Flow ${flow.name} put back ${names}${more}: deleted`);
    }
    // Bookkeeping off the run's path: the writer keeps each record's writes in order. A run that
    // wrote nothing (every apply unchanged, the same report, the finalizer as it was) is counted
    // only; one that put a child back is recorded. Without a child cache every apply is sent.
    // A run someone asked for (flowops reconcile) is recorded even when it changed nothing.
    const asked = r.triggers.includes('manual');
    const changed = report.wrote || r.current !== r.withoutFinalizer || r.sendsEveryApply || r.applies > 0 || asked;
    const started = r.started ?? { at: nowRfc3339(), t0: performance.now() };
    if (changed) void this.deps.history?.record(obj, flow, runOf(flow, 'Succeeded', r.trace, started));
    else this.deps.history?.countUnchanged(obj, flow);
    if (this.deps.liveChild) {
      const memoed = r.children.collected().map((c) => memoChild(c.live, c));
      this.memos.set(r.memoKey, { fingerprint: r.runPrint, at: started.t0, steps: r.data.Steps, children: memoed });
    }
    const steps = flow.spec.reconcile?.steps?.length ?? 0;
    log.info({ steps, children: judged.verdicts.length, ready: verdict.ready, changed }, 'reconciled');
    r.report = { outcome: 'success', ready: verdict.ready, children: judged.verdicts.length };
    return success(r.resyncMs ? jittered(r.resyncMs) : undefined);
  }

  /**
   * The object's generation cannot be run (its spec is unreadable): Stalled with the reason, an
   * Event once, and nothing else touched, until the generation is restored or the object moves.
   */
  async stall(
    flow: FlowDefinition,
    ref: ObjectRef,
    why: { reason: string; message: string },
  ): Promise<ReconcileReport> {
    const obj = (await this.deps.read?.(ref)) ?? (await this.deps.kube.get(ref));
    if (!obj) return { outcome: 'gone', result: success() };
    const verdict = { ready: false, reason: why.reason, message: why.message, stalled: why };
    const report = await writeOwnerReport(this.kubeFor(flow), obj, {}, verdict, this.deps.fieldManager);
    if (report.wrote)
      await this.deps.events.record(obj, 'Warning', 'ReconcileStalled', `Flow ${flow.name}: ${why.message}`);
    return { outcome: 'stalled', result: stalled(why.reason, why.message) };
  }

  private async recordReady(flow: FlowDefinition, obj: KubeObject): Promise<void> {
    await this.deps.events.record(obj, 'Normal', 'Reconciled', `Flow ${flow.name} reconciled`);
  }

  /**
   * Only a child's status moved since a run whose steps still stand: its readiness and the status
   * projection are judged again from the cached children, and the status written if it changed.
   * No step runs, so no run is recorded.
   */
  private async rejudge(
    flow: FlowDefinition,
    obj: KubeObject,
    memo: RunMemo,
    live: KubeObject[],
    log: Log,
  ): Promise<ReconcileReport> {
    const children = new ChildCollector();
    memo.children.forEach((c, i) => {
      const child = live[i];
      const readyWhen = c.readyWhen !== undefined ? { readyWhen: c.readyWhen } : {};
      if (child) children.record(child, { step: c.step, keep: c.keep, ...readyWhen });
    });
    const data = { ...templateData(flow, obj, this.deps.now), Steps: memo.steps };
    const judged = judgeChildren(flow, children, data);
    if ('failure' in judged) {
      // The same template over a new child status: run the steps again, which report it as they do.
      this.memos.delete(`${flow.namespace}/${flow.name}\u001f${obj.metadata.uid ?? ''}`);
      return failedReport({ ...judged.failure, terminal: false });
    }
    const { verdicts, fields } = judged;
    const verdict = verdictOf(flow, verdicts, obj.metadata.namespace, fields);
    const report = await writeOwnerReport(this.kubeFor(flow), obj, {}, verdict, this.deps.fieldManager);
    if (report.transitioned && verdict.ready) await this.recordReady(flow, obj);
    const what = { children: verdicts.length, ready: verdict.ready, changed: report.wrote };
    log.debug(what, 'children re-judged; steps not run');
    return { outcome: 'success', ready: verdict.ready, children: verdicts.length, result: success() };
  }

  /**
   * Deletes the children the last run made that this run did not render. The new inventory is what
   * this run applied plus what could not be deleted (tried again next time).
   */
  private async prune(
    flow: FlowDefinition,
    obj: KubeObject,
    previous: ChildEntry[],
    current: ChildEntry[],
    log: Log,
  ): Promise<ChildEntry[]> {
    const stale = staleEntries(previous, current);
    if (!stale.length) return current;
    const result = await deleteChildren(this.scope(flow, obj), stale);
    if (result.deleted.length) {
      const names = result.deleted.map((e) => `${e.kind}/${e.name}`).join(', ');
      log.info({ pruned: names }, 'pruned children no longer rendered');
      await this.deps.events.record(obj, 'Normal', 'Pruned', `Flow ${flow.name} deleted ${names}: no longer rendered`);
    }
    if (result.failed.length) {
      log.warn({ err: result.failures.join('; ') }, 'could not prune children');
      await this.deps.events.record(obj, 'Warning', 'PruneFailed', result.failures.join('; '));
    }
    return [...current, ...result.failed];
  }

  /**
   * Reports a failed run. onError runs once per failure episode (the first failure since the last
   * success, or since the object or the Flow changed), not on every retry. A terminal failure also
   * sets Stalled=True and is not retried (a stalled result); any other is retried by the queue with
   * backoff (an error result).
   */
  private async reportFailure(r: FlowRun, failure: StepFailure): Promise<void> {
    const { flow, obj, log, trace, started } = r;
    const what = { step: failure.step, reason: failure.reason, terminal: failure.terminal, err: failure.message };
    log.warn(what, 'reconcile failed');
    if (r.newEpisode) await this.runOnError(flow, obj, failure, r.cancel, log);
    const error = { step: failure.step, reason: failure.reason, message: failure.message };
    const run = lastRunOf(flow, failure.terminal ? 'Stalled' : 'Failed', trace, error);
    const message = `step "${failure.step}" failed: ${failure.message}`;
    const { step, reason, terminal } = failure;
    const episode = { fingerprint: r.fingerprint, terminal, step, reason };
    const report = await writeOwnerReport(
      this.kubeFor(flow),
      obj,
      {
        [FAILURE_ANNOTATION]: encodeFailure(episode),
        [LAST_RUN_ANNOTATION]: encodeLastRun(run),
        [FLOW_GENERATION_ANNOTATION]: String(flow.generation),
      },
      {
        ready: false,
        reason: failure.reason,
        message,
        ...(failure.terminal ? { stalled: { reason: failure.reason, message } } : {}),
      },
      this.deps.fieldManager,
    );
    // The same failure again (a retry that changed nothing): no Event, no record, only counted.
    if (report.wrote || r.newEpisode) {
      const reason = failure.terminal ? 'ReconcileStalled' : 'ReconcileFailed';
      await this.deps.events.record(obj, 'Warning', reason, `Flow ${flow.name}: ${message}`);
      if (started) void this.deps.history?.record(obj, flow, runOf(flow, run.outcome, trace, started, run.error));
    } else if (started) this.deps.history?.countUnchanged(obj, flow);
  }

  /** The object is being deleted: run onDelete once, delete the children no ownerReference covers, then let it go. */
  private async finishDeletion(
    flow: FlowDefinition | undefined,
    obj: KubeObject,
    cancel: AbortSignal,
    log: Log,
  ): Promise<ReconcileReport> {
    if (!hasFinalizer(obj)) return { outcome: 'deleted', result: success() };
    const onDelete = flow?.spec.onDelete?.steps;
    if (flow && onDelete) {
      const outcome = await runSteps(
        onDelete,
        this.context(flow, obj, templateData(flow, obj, this.deps.now), log),
        cancel,
        this.deps.observer,
      );
      if (!outcome.ok) {
        const failure = {
          ...outcome.failure,
          message: placeTemplateErrors(outcome.failure.message, flow.name, flow.file),
        };
        await this.deps.events.record(
          obj,
          'Warning',
          'OnDeleteFailed',
          `onDelete step "${failure.step}" failed: ${failure.message}`,
        );
        return failedReport(failure);
      }
      await this.deps.events.record(obj, 'Normal', 'OnDeleteSucceeded', `Flow ${flow.name} ran its onDelete steps`);
    }
    if (flow) {
      const unowned = readInventory(obj).filter((e) => e.cleanup === 'flowops');
      const result = await deleteChildren(this.scope(flow, obj), unowned);
      if (result.failed.length) {
        await this.deps.events.record(obj, 'Warning', 'CleanupFailed', result.failures.join('; '));
        const message = result.failures.join('; ');
        return failedReport({ step: 'cleanup', reason: 'CleanupFailed', message, attempts: 1, terminal: false });
      }
    }
    await setFinalizer(flow ? this.kubeFor(flow) : this.deps.kube, obj, false, this.deps.fieldManager);
    log.info('deletion finished; finalizer removed');
    return { outcome: 'deleted', result: success() };
  }

  /** A child event that echoes an apply of this reconciler (see AppliedCache.echoes). */
  echoes(child: KubeObject, release: () => void): boolean {
    return this.applied.echoes(child, release);
  }

  /** The run records waiting for their batch's timer, written now. */
  async flushRecords(): Promise<void> {
    await this.deps.history?.flush();
  }

  /** The run records still being written, done (a process stopping). */
  async drain(): Promise<void> {
    await this.deps.history?.drain();
  }

  /** Releases an object whose Flow can no longer run (deleted or invalid): no onDelete, just the finalizer. */
  async release(ref: ObjectRef): Promise<void> {
    const obj = await this.deps.kube.get(ref);
    if (obj && hasFinalizer(obj, FLOW_FINALIZER))
      await setFinalizer(this.deps.kube, obj, false, this.deps.fieldManager);
  }

  private async runOnError(
    flow: FlowDefinition,
    obj: KubeObject,
    failure: StepFailure,
    cancel: AbortSignal,
    log: Log,
  ): Promise<void> {
    const onError = flow.spec.onError?.steps;
    if (!onError) return;
    const data = templateData(flow, obj, this.deps.now);
    data.Error = { step: failure.step, reason: failure.reason, message: failure.message };
    const outcome = await runSteps(onError, this.context(flow, obj, data, log), cancel, this.deps.observer);
    if (!outcome.ok) log.warn({ step: outcome.failure.step, err: outcome.failure.message }, 'onError step failed');
  }

  /** Sets the finalizer's presence; returns the object with the finalizer list the server now has. */
  private async withFinalizer(flow: FlowDefinition, obj: KubeObject, present: boolean): Promise<KubeObject> {
    if (!(await setFinalizer(this.kubeFor(flow), obj, present, this.deps.fieldManager))) return obj;
    const list = obj.metadata.finalizers ?? [];
    const finalizers = present ? [...list, FLOW_FINALIZER] : list.filter((f) => f !== FLOW_FINALIZER);
    return { ...obj, metadata: { ...obj.metadata, finalizers } };
  }

  /**
   * The client a Flow's calls go through: impersonating its ServiceAccount (spec.serviceAccountName,
   * else the --default-service-account of the process), or FlowOps' own identity when neither is
   * set. One per ServiceAccount, sharing connections.
   */
  private kubeFor(flow: FlowDefinition): KubeClient {
    const sa = flow.spec.serviceAccountName ?? this.deps.defaultServiceAccount;
    if (!sa) return this.deps.kube;
    const key = `${flow.namespace}/${sa}`;
    let kube = this.impersonating.get(key);
    if (!kube) this.impersonating.set(key, (kube = this.deps.kube.asServiceAccount(flow.namespace, sa)));
    return kube;
  }

  private scope(flow: FlowDefinition, obj: KubeObject): PruneScope {
    return { kube: this.kubeFor(flow), flow: `${flow.namespace}/${flow.name}`, owner: obj };
  }

  private context(flow: FlowDefinition, obj: KubeObject, data: TemplateData, log: Log) {
    return {
      flow: {
        name: flow.name,
        namespace: flow.namespace,
        uid: flow.uid,
        ...(flow.source ? { source: flow.source } : {}),
        ...(flow.revision ? { revision: flow.revision } : {}),
      },
      resource: obj,
      data,
      kube: this.kubeFor(flow),
      ...(this.deps.ownNamespaceOnly ? { ownNamespaceOnly: true } : {}),
      log,
      fieldManager: this.deps.fieldManager,
      ...(flow.sourceDir ? { sourceDir: flow.sourceDir } : {}),
      ...(this.deps.liveChild ? { applied: this.appliedFor(flow, this.deps.liveChild) } : {}),
    };
  }

  private appliedFor(flow: FlowDefinition, live: LiveChild): NonNullable<StepContext['applied']> {
    const sa = flow.spec.serviceAccountName ?? this.deps.defaultServiceAccount;
    return { cache: this.applied, live, identity: sa ? `${flow.namespace}/${sa}` : '' };
  }
}

/** The verdict on a successful run: Ready when every child is, else which are not. */
function verdictOf(
  flow: FlowDefinition,
  verdicts: ChildVerdict[],
  namespace: string | undefined,
  fields: Record<string, unknown>,
): ResourceVerdict {
  const notReady = notReadyMessage(verdicts, namespace);
  const ready = notReady === '';
  const count = verdicts.length ? `; ${verdicts.length} children ready` : '';
  const message = ready ? `Flow ${flow.name} reconciled${count}` : notReady;
  return { ready, reason: ready ? 'Reconciled' : 'ChildrenNotReady', message, fields };
}

/**
 * Steps that read live objects (kubectl get and wait) may output what a child's status says:
 * such a Flow declares, by having them, that a child's status change runs its steps again.
 */
function readsLiveObjects(flow: FlowDefinition): boolean {
  const steps = flow.spec.reconcile?.steps ?? [];
  return steps.some((s) => s.type === 'kubectl' && (s.action === 'get' || s.action === 'wait'));
}

/**
 * The children's readiness and the projected status, or the status template error that stopped
 * them (a run reports it as a step failure; a re-judge runs the steps again).
 */
function judgeChildren(
  flow: FlowDefinition,
  children: ChildCollector,
  data: TemplateData,
): { verdicts: ChildVerdict[]; fields: Record<string, unknown> } | { failure: Omit<StepFailure, 'terminal'> } {
  try {
    const verdicts = children.judge(data);
    return { verdicts, fields: projectStatus(flow.spec.status, { ...data, Children: children.templateData() }) };
  } catch (err) {
    if (!(err instanceof TemplateRenderError || err instanceof TemplateParseError)) throw err;
    return {
      failure: {
        step: err.templateName.split('.')[0] ?? 'status',
        reason: 'StatusTemplateError',
        message: err.message,
        attempts: 1,
      },
    };
  }
}

/** onDelete steps, or children no ownerReference covers, need the object to wait for FlowOps. */
const needsFinalizer = (flow: FlowDefinition, inventory: readonly ChildEntry[]): boolean =>
  flow.spec.onDelete !== undefined || inventory.some((e) => e.cleanup === 'flowops');

function lastRunOf(
  flow: FlowDefinition,
  outcome: LastRun['outcome'],
  steps: StepTrace[],
  error?: LastRun['error'],
): LastRun {
  return {
    flow: `${flow.namespace}/${flow.name}`,
    flowGeneration: flow.generation,
    ...(flow.revision ? { revision: flow.revision } : {}),
    outcome,
    steps,
    ...(error ? { error } : {}),
  };
}

const childRef = (e: ChildEntry): ObjectRef => ({
  apiVersion: e.apiVersion,
  kind: e.kind,
  name: e.name,
  ...(e.namespace ? { namespace: e.namespace } : {}),
});
const sameChild = (a: ChildEntry, b: ChildEntry): boolean =>
  a.apiVersion === b.apiVersion &&
  a.kind === b.kind &&
  a.name === b.name &&
  (a.namespace ?? '') === (b.namespace ?? '');

/** A RunHistory entry: what lastRunOf says, with the start time and the durations. */
function runOf(
  flow: FlowDefinition,
  outcome: Run['outcome'],
  steps: StepTrace[],
  started: RunStart,
  error?: Run['error'],
): Run {
  return {
    startTime: started.at,
    duration: formatDuration(performance.now() - started.t0),
    outcome,
    flowGeneration: flow.generation,
    ...(flow.revision ? { revision: flow.revision } : {}),
    ...(started.triggers?.length ? { triggers: started.triggers } : {}),
    steps: steps.map((s) => ({ name: s.name, result: s.result, attempts: s.attempts, duration: formatDuration(s.ms) })),
    ...(error ? { error } : {}),
  };
}

/** ±10 %, so that objects created together do not resync together. */
const jittered = (ms: number): number => Math.round(ms * (0.9 + Math.random() * 0.2));

function templateData(flow: FlowDefinition, obj: KubeObject, now: () => string = nowRfc3339): TemplateData {
  return { Resource: obj, Steps: {}, Now: now(), Flow: { name: flow.name, namespace: flow.namespace } };
}
