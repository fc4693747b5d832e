import { FLOW_API_VERSION } from '../api/flow.js';
import { parseFlow } from '../api/validate.js';
import { FlowReconciler, type FlowDefinition } from '../engine/flow-reconciler.js';
import { FLOW_FINALIZER, hasFinalizer, setFinalizer } from '../engine/finalizer.js';
import { decodeKey, encodeKey, flowKeyOf } from '../engine/keys.js';
import { readsSourceFiles } from '../engine/source-files.js';
import type { KubeClient } from '../kube/client.js';
import { UnknownKindError } from '../kube/discovery.js';
import { Informer, type InformerHandlers } from '../kube/informer.js';
import type { Condition, KubeObject, ObjectRef } from '../kube/types.js';
import { refOf } from '../kube/types.js';
import type { Logger } from '../log/index.js';
import type { DeclarativeController } from '../operator/controller.js';
import { flowPipelineController } from '../operator/flow-pipeline.js';
import { crdViewBackend, type ViewBackend } from '../operator/view-backend.js';
import type { ReconcileObserver } from '../metrics/observers.js';
import type { ReconcileResult, WorkQueue } from '../queue/types.js';
import { labelSelectorString } from './label-selector.js';
import { ChildWatches, type ChildOwner } from './child-watches.js';
import { childId, readInventory } from '../engine/child-inventory.js';
import { SOURCE_ANNOTATION } from '../sync/provenance.js';
import { FlowStats } from './flow-stats.js';
import { FlowStatusWriter, type FlowStatusSummary } from './flow-status-writer.js';
import { updateNeedsReconcile } from './predicates.js';

/** On a Flow with onDelete: lets FlowOps release the watched objects' finalizers before the Flow goes. */
export const FLOW_CLEANUP_FINALIZER = 'flowops.io/cleanup';

interface FlowEntry {
  key: string;
  flow: KubeObject;
  def: FlowDefinition | undefined;
  invalid: string | undefined;
  watchSignature: string;
  informer: Informer | undefined;
  synced: boolean;
  kindMissing: string | undefined;
  stats: FlowStats;
  /** A Flow with pipeline + target runs as a declarative controller instead of steps. */
  pipeline: DeclarativeController | undefined;
  pipelineSignature: string;
}

/** The annotation the Git sync sets on a Flow: the commit it came from (logged on reconcile lines). */
export const REVISION_ANNOTATION = 'flowops.io/revision';

export interface FlowManagerDeps {
  kube: KubeClient;
  /** Where watch events go; the leader's BullMQ producer, or the in-process queue. */
  queue: Pick<WorkQueue, 'add'>;
  reconciler: FlowReconciler;
  log: Logger;
  fieldManager: string;
  /** Resolves a Flow's source folder (for chart paths), when it came from Git. */
  sourceDirFor?: (flow: KubeObject) => string | undefined;
  /**
   * Fetches a Flow's source folder when it is not on this machine (a worker process: the
   * leader's clones are in another pod). Awaited before each reconcile; memoised by the provider.
   */
  fetchSourceDir?: (flow: KubeObject) => Promise<string | undefined>;
  /**
   * "full" (default): the singleton watches and the reconciles in one process (`flowops up`).
   * "leader": the singleton watches only (`flowops run`); reconciles run in worker processes, so
   * the Flow status counts come from the Ready conditions the workers write on watched objects.
   * "registry": a worker process's view: only the Flow informer, to know every Flow's current
   * spec for `handle`; no dynamic informers, finalizers or status writes (the leader does those).
   */
  mode?: 'full' | 'leader' | 'registry';
  /** Told the outcome and duration of every reconcile (metrics). */
  observer?: ReconcileObserver;
  /** Where pipeline Flows keep view targets (default: CRD-backed views on the same server). */
  views?: ViewBackend;
}

/**
 * The meta-controller: watches Flows, keeps one dynamic controller (an informer on the watched
 * kind) per Flow, turns watch events into queue keys, and runs the queue's keys through the
 * reconciler with the Flow's current spec. Editing a Flow hot-reloads it; deleting it stops it.
 */
export class FlowManager {
  private readonly entries = new Map<string, FlowEntry>();
  private readonly status: FlowStatusWriter;
  private flowInformer: Informer | undefined;
  private crdInformer: Informer | undefined;
  private readonly stopping = new AbortController();
  private views: ViewBackend | undefined;
  private readonly flowsSyncedP: Promise<void>;
  private markFlowsSynced: () => void = () => undefined;
  private flowsAreSynced = false;
  /** The child-kind informers (Owns()); only where the watches run, not in a worker's registry. */
  readonly children: ChildWatches | undefined;

  constructor(private readonly deps: FlowManagerDeps) {
    this.status = new FlowStatusWriter(deps.kube, deps.log, deps.fieldManager);
    if (deps.mode !== 'registry') this.children = new ChildWatches({ kube: deps.kube, log: deps.log, enqueueOwner: (o, child) => this.enqueueOwner(o, child) });
    this.flowsSyncedP = new Promise<void>((resolve) => (this.markFlowsSynced = resolve));
  }

  private get registryOnly(): boolean {
    return this.deps.mode === 'registry';
  }

  /** Resolves once the Flow informer has listed every Flow (a worker waits for it before taking jobs). */
  flowsSynced(): Promise<void> {
    return this.flowsSyncedP;
  }

  /** Starts the singleton watches (Flows, CRDs); the queue's workers call `handle`. */
  startWatches(): void {
    const { kube, log } = this.deps;
    this.flowInformer = new Informer(kube, { apiVersion: FLOW_API_VERSION, kind: 'Flow', log }, {
      add: (f) => this.upsert(f),
      update: (f) => this.upsert(f),
      delete: (f) => void this.remove(f),
      synced: () => {
        this.flowsAreSynced = true;
        this.markFlowsSynced();
      },
    });
    this.flowInformer.start();
    if (this.registryOnly) return;
    // A kind that a Flow waits for may be served as soon as its CRD appears.
    this.crdInformer = new Informer(kube, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', log }, {
      add: () => this.retryMissingKinds(),
      update: () => undefined,
      delete: () => undefined,
    });
    this.crdInformer.start();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all([this.flowInformer?.stop(), this.crdInformer?.stop(), this.children?.stop(), ...[...this.entries.values()].flatMap((e) => [e.informer?.stop(), e.pipeline?.stop()])]);
    await this.status.stop();
  }

  /**
   * The watched object as the informers last saw it (undefined: not cached, ask the server). With
   * `seen` (the version the leader enqueued for), only exactly that version answers: a worker's
   * cache may lag the leader's watch, and an older copy would reconcile a spec already replaced
   * with nothing left to trigger the next run.
   */
  cached(ref: ObjectRef, seen?: string): KubeObject | undefined {
    for (const e of this.entries.values()) {
      if (!e.synced || !e.informer) continue;
      const w = (e.flow.spec as { watch?: { apiVersion?: string; kind?: string } }).watch;
      if (w?.apiVersion !== ref.apiVersion || w.kind !== ref.kind) continue;
      const obj = e.informer.get(ref.namespace, ref.name);
      if (obj) return seen === undefined || obj.metadata.resourceVersion === seen ? obj : undefined;
    }
    return undefined;
  }

  /** Every watched key, for a resync after Redis lost its queue or on leader start. */
  allKeys(): string[] {
    const keys: string[] = [];
    for (const e of this.entries.values()) for (const obj of e.informer?.list() ?? []) keys.push(this.keyFor(e, obj));
    return keys;
  }

  /** The queue handler: one reconcile of one watched object by one Flow. */
  readonly handle = async (key: string, seen?: string): Promise<ReconcileResult | void> => {
    const k = decodeKey(key);
    const entry = this.entries.get(flowKeyOf(k.flowNamespace, k.flowName)) ?? (await this.freshFlow(k.flowNamespace, k.flowName));
    if (!entry || entry.flow.metadata.deletionTimestamp) {
      // The Flow is gone or going: nothing may keep the object from being deleted.
      await this.deps.reconciler.release(k.resource);
      return;
    }
    const resourceKey = `${k.resource.namespace ?? ''}/${k.resource.name}`;
    if (!entry.def) {
      const obj = await this.deps.kube.get(k.resource);
      if (obj?.metadata.deletionTimestamp) await this.deps.reconciler.release(k.resource);
      return;
    }
    const t0 = performance.now();
    let result = 'failure';
    try {
      const fetched = this.deps.fetchSourceDir && readsSourceFiles(entry.def.spec) ? await this.deps.fetchSourceDir(entry.flow) : undefined;
      const def = fetched ? { ...entry.def, sourceDir: fetched } : entry.def;
      const report = await this.deps.reconciler.reconcile(def, k.resource, this.stopping.signal, seen);
      result = report.outcome;
      entry.stats.record(resourceKey, report);
      if (report.requeueAfterMs) return { requeueAfterMs: report.requeueAfterMs };
    } catch (err) {
      entry.stats.record(resourceKey, { outcome: 'failure', error: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      this.deps.observer?.reconciled(entry.key, result, (performance.now() - t0) / 1000);
      this.scheduleStatus(entry);
    }
  };

  private upsert(flow: KubeObject): void {
    const key = flowKeyOf(flow.metadata.namespace ?? 'default', flow.metadata.name!);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { key, flow, def: undefined, invalid: undefined, watchSignature: '', informer: undefined, synced: false, kindMissing: undefined, stats: new FlowStats(), pipeline: undefined, pipelineSignature: '' };
      this.entries.set(key, entry);
    }
    const revisionMoved = entry.flow.metadata.annotations?.[REVISION_ANNOTATION] !== flow.metadata.annotations?.[REVISION_ANNOTATION];
    let generationChanged = entry.flow.metadata.generation !== flow.metadata.generation || !entry.def;
    entry.flow = flow;
    if (flow.metadata.deletionTimestamp) {
      if (this.registryOnly) return;
      void this.cleanupDeletedFlow(entry);
      return;
    }
    try {
      const parsed = parseFlow(flow);
      entry.def = {
        namespace: flow.metadata.namespace ?? 'default',
        name: flow.metadata.name!,
        uid: flow.metadata.uid ?? '',
        generation: flow.metadata.generation ?? 0,
        spec: parsed.spec,
        ...(this.deps.sourceDirFor?.(flow) ? { sourceDir: this.deps.sourceDirFor(flow)! } : {}),
        ...(flow.metadata.annotations?.[REVISION_ANNOTATION] ? { revision: flow.metadata.annotations[REVISION_ANNOTATION] } : {}),
        ...(flow.metadata.annotations?.[SOURCE_ANNOTATION] ? { source: flow.metadata.annotations[SOURCE_ANNOTATION] } : {}),
      };
      entry.invalid = undefined;
      // A new commit may have changed the chart or kustomize files the steps render: rerun as for a new spec.
      if (revisionMoved && readsSourceFiles(parsed.spec)) generationChanged = true;
    } catch (err) {
      entry.def = undefined;
      entry.invalid = err instanceof Error ? err.message : String(err);
      this.deps.log.warn({ flow: key, err: entry.invalid }, 'Flow is invalid; its watched objects are only released on deletion');
    }
    if (this.registryOnly) {
      if (generationChanged) void this.requeueWatched(entry);
      this.syncCache(entry);
      return;
    }
    void this.ensureCleanupFinalizer(entry);
    if (this.syncPipeline(entry)) {
      this.scheduleStatus(entry);
      return;
    }
    const signature = JSON.stringify((flow.spec as { watch?: unknown } | undefined)?.watch ?? null);
    if (signature !== entry.watchSignature || !entry.informer) {
      entry.watchSignature = signature;
      void this.restartInformer(entry);
    } else if (generationChanged) {
      // Hot reload: every watched object runs again under the new spec.
      for (const obj of entry.informer.list()) this.deps.queue.add(this.keyFor(entry, obj));
    }
    this.scheduleStatus(entry);
  }

  private async remove(flow: KubeObject): Promise<void> {
    const key = flowKeyOf(flow.metadata.namespace ?? 'default', flow.metadata.name!);
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (this.registryOnly) return void (await entry.informer?.stop());
    const objects = entry.informer?.list() ?? [];
    await entry.pipeline?.stop();
    await entry.informer?.stop();
    // Without a cleanup finalizer the Flow may already be gone; release whatever still waits on it.
    // Release reads each object afresh: the cache may predate a finalizer added by a last reconcile.
    for (const obj of objects) await this.deps.reconciler.release(refOf(obj)).catch(() => undefined);
  }

  /**
   * Runs a pipeline Flow as a one-controller Operator (restarted when its watch, pipeline or
   * target change) and stops a pipeline that is no longer wanted. True when the Flow is a pipeline
   * Flow, so no step informer runs for it.
   */
  private syncPipeline(entry: FlowEntry): boolean {
    const spec = entry.def?.spec;
    const wanted = spec?.pipeline !== undefined && spec.target !== undefined && !spec.suspend;
    const signature = wanted ? JSON.stringify([spec.watch, spec.pipeline, spec.target]) : '';
    if (signature !== entry.pipelineSignature) {
      const old = entry.pipeline;
      entry.pipeline = undefined;
      entry.pipelineSignature = signature;
      void (async () => {
        await old?.stop();
        if (!wanted || entry.pipelineSignature !== signature || this.entries.get(entry.key) !== entry) return;
        this.views ??= this.deps.views ?? crdViewBackend(this.deps.kube);
        const ctl = flowPipelineController(entry.def!.namespace, entry.def!.name, spec, { kube: this.deps.kube, views: this.views, log: this.deps.log, onChange: () => this.scheduleStatus(entry) });
        entry.pipeline = ctl;
        await ctl.start();
      })();
    }
    if (spec?.pipeline === undefined) return false;
    const informer = entry.informer;
    entry.informer = undefined;
    entry.watchSignature = '';
    void informer?.stop();
    return true;
  }

  private async cleanupDeletedFlow(entry: FlowEntry): Promise<void> {
    const objects = entry.informer?.list() ?? [];
    for (const obj of objects) await this.deps.reconciler.release(refOf(obj)).catch(() => undefined);
    await setFinalizer(this.deps.kube, entry.flow, false, this.deps.fieldManager, FLOW_CLEANUP_FINALIZER).catch((err: unknown) =>
      this.deps.log.warn({ err, flow: entry.key }, 'could not remove the Flow cleanup finalizer'),
    );
  }

  private async ensureCleanupFinalizer(entry: FlowEntry): Promise<void> {
    const wants = entry.def?.spec.onDelete !== undefined;
    if (wants === hasFinalizer(entry.flow, FLOW_CLEANUP_FINALIZER) || (!wants && !entry.def)) return;
    await setFinalizer(this.deps.kube, entry.flow, wants, this.deps.fieldManager, FLOW_CLEANUP_FINALIZER).catch((err: unknown) =>
      this.deps.log.warn({ err, flow: entry.key }, 'could not update the Flow cleanup finalizer'),
    );
  }

  /**
   * Registry mode: a read cache of the watched objects (controller-runtime's cached client), so a
   * worker answers most reads without a GET. It enqueues nothing; the leader's watch does that.
   */
  private syncCache(entry: FlowEntry): void {
    const spec = entry.def?.spec;
    const signature = spec && spec.pipeline === undefined ? JSON.stringify(spec.watch) : '';
    if (signature === entry.watchSignature && (entry.informer || !signature)) return;
    entry.watchSignature = signature;
    if (signature) void this.restartInformer(entry);
    else {
      void entry.informer?.stop();
      entry.informer = undefined;
      entry.synced = false;
    }
  }

  private async restartInformer(entry: FlowEntry): Promise<void> {
    const old = entry.informer;
    entry.informer = undefined;
    entry.synced = false;
    await old?.stop();
    const watch = (entry.flow.spec as { watch?: { apiVersion?: string; kind?: string; namespace?: string; labelSelector?: unknown } } | undefined)?.watch;
    if (!watch?.apiVersion || !watch.kind || this.entries.get(entry.key) !== entry) return;
    let selector: string | undefined;
    try {
      selector = labelSelectorString(watch.labelSelector);
    } catch (err) {
      entry.invalid ??= (err as Error).message;
      return;
    }
    const informer = new Informer(
      this.deps.kube,
      {
        apiVersion: watch.apiVersion,
        kind: watch.kind,
        ...(watch.namespace ? { namespace: watch.namespace } : {}),
        ...(selector ? { labelSelector: selector } : {}),
        log: this.deps.log,
      },
      this.registryOnly ? cacheOnlyHandlers(entry) : this.enqueueingHandlers(entry),
    );
    entry.informer = informer;
    informer.start();
  }

  /** Full and leader mode: watch events become queue keys, with the version seen as a cache hint. */
  private enqueueingHandlers(entry: FlowEntry): InformerHandlers {
    return {
      add: (obj) => {
        this.recordReadyCondition(entry, obj);
        this.children?.observeOwner(obj);
        this.deps.queue.add(this.keyFor(entry, obj), obj.metadata.resourceVersion);
      },
      update: (obj, old) => {
        this.recordReadyCondition(entry, obj);
        this.children?.observeOwner(obj);
        if (updateNeedsReconcile(old, obj)) this.deps.queue.add(this.keyFor(entry, obj), obj.metadata.resourceVersion);
      },
      delete: (obj) => {
        entry.stats.forget(`${obj.metadata.namespace ?? ''}/${obj.metadata.name}`);
        this.scheduleStatus(entry);
      },
      synced: () => {
        entry.synced = true;
        entry.kindMissing = undefined;
        this.scheduleStatus(entry);
      },
      error: (err) => {
        if (err instanceof UnknownKindError) {
          entry.kindMissing = err.message;
          this.scheduleStatus(entry);
        }
      },
    };
  }

  /**
   * A worker found a key for a Flow it has not seen yet (its watch lags the leader's): read the
   * Flow from the server instead of taking it for deleted.
   */
  private async freshFlow(namespace: string, name: string): Promise<FlowEntry | undefined> {
    if (!this.registryOnly) return undefined;
    const flow = await this.deps.kube.get({ apiVersion: FLOW_API_VERSION, kind: 'Flow', namespace, name });
    if (!flow) return undefined;
    this.upsert(flow);
    return this.entries.get(flowKeyOf(namespace, name));
  }

  /**
   * Registry mode: a worker learned a new Flow generation. The leader enqueued the watched objects
   * when it saw the change, but a job may have run here against the old spec before this worker's
   * watch caught up; enqueueing them again (dedup collapses repeats) guarantees a run under the new
   * spec. Before the first sync this is the leader's start-up resync, so it is skipped.
   */
  private async requeueWatched(entry: FlowEntry): Promise<void> {
    if (!this.flowsAreSynced) return;
    const watch = (entry.flow.spec as { watch?: { apiVersion?: string; kind?: string; namespace?: string; labelSelector?: unknown } } | undefined)?.watch;
    if (!watch?.apiVersion || !watch.kind) return;
    try {
      const selector = labelSelectorString(watch.labelSelector);
      const { items } = await this.deps.kube.list(watch.apiVersion, watch.kind, { ...(watch.namespace ? { namespace: watch.namespace } : {}), ...(selector ? { labelSelector: selector } : {}) });
      for (const obj of items) this.deps.queue.add(this.keyFor(entry, obj));
    } catch (err) {
      this.deps.log.debug({ err, flow: entry.key }, 'could not list the watched objects after a Flow change');
    }
  }

  /** Leader mode: a worker's verdict, as the Ready condition it wrote, feeds the Flow's status counts. */
  private recordReadyCondition(entry: FlowEntry, obj: KubeObject): void {
    if (this.deps.mode !== 'leader') return;
    const ready = ((obj.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'Unknown') return;
    const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    // Children not ready yet is a successful run whose objects are still coming up, not a failure.
    const report = ready.status === 'True' ? { outcome: 'success' as const, ready: true } : ready.reason === 'ChildrenNotReady' ? { outcome: 'success' as const, ready: false } : { outcome: 'failure' as const, error: ready.message ?? '' };
    entry.stats.record(key, report);
    this.scheduleStatus(entry);
  }

  /**
   * A child changed: its owner runs again (Owns()), if the Flow its annotation names still watches
   * that kind and the owner's inventory lists the child. An owner missing from the cache is gone.
   */
  private enqueueOwner(owner: ChildOwner, child: KubeObject): void {
    const entry = this.entries.get(owner.flow);
    const watch = entry?.def?.spec.watch;
    if (!entry || !watch || watch.kind !== owner.kind || entry.flow.metadata.deletionTimestamp) return;
    const cached = entry.informer?.get(owner.namespace, owner.name);
    if (!cached || !inInventory(cached, child)) return;
    const resource: ObjectRef = { apiVersion: watch.apiVersion, kind: watch.kind, name: owner.name, ...(owner.namespace ? { namespace: owner.namespace } : {}) };
    this.deps.queue.add(encodeKey({ flowNamespace: entry.def!.namespace, flowName: entry.def!.name, resource }));
  }

  private retryMissingKinds(): void {
    this.deps.kube.discovery.invalidate();
    for (const e of this.entries.values()) if (e.kindMissing || (e.informer && !e.synced)) void this.restartInformer(e);
  }

  private keyFor(entry: FlowEntry, obj: KubeObject): string {
    const resource: ObjectRef = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name!, ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}) };
    return encodeKey({ flowNamespace: entry.flow.metadata.namespace ?? 'default', flowName: entry.flow.metadata.name!, resource });
  }

  private scheduleStatus(entry: FlowEntry): void {
    if (entry.flow.metadata.deletionTimestamp || this.registryOnly) return;
    this.status.schedule(entry.key, entry.flow, () => summarize(entry));
  }
}

function inInventory(owner: KubeObject, child: KubeObject): boolean {
  const id = childId({ apiVersion: child.apiVersion, kind: child.kind, namespace: child.metadata.namespace, name: child.metadata.name ?? '' });
  return readInventory(owner).some((e) => childId(e) === id);
}

/** Registry mode: the informer only keeps the cache; the leader's watch enqueues. */
function cacheOnlyHandlers(entry: FlowEntry): InformerHandlers {
  return { add: () => undefined, update: () => undefined, delete: () => undefined, synced: () => void (entry.synced = true) };
}

function summarize(e: FlowEntry): FlowStatusSummary {
  if (e.pipeline) return summarizePipeline(e, e.pipeline);
  const { succeeded, failed, notReady } = e.stats.counts();
  const watched = e.informer?.list().length ?? 0;
  const base = { generation: e.flow.metadata.generation ?? 0, watched, succeeded, failed, ready: succeeded - notReady, notReady, ...(e.stats.lastError ? { lastError: e.stats.lastError } : {}), ...(e.stats.lastReconcileTime ? { lastReconcileTime: e.stats.lastReconcileTime } : {}) };
  if (e.invalid) return { ...base, state: 'invalid', message: e.invalid };
  if (e.def?.spec.suspend) return { ...base, state: 'suspended', message: 'reconciliation is suspended' };
  if (e.kindMissing) return { ...base, state: 'waiting', message: `waiting for the watched kind: ${e.kindMissing}` };
  if (failed) return { ...base, state: 'failing', message: `${failed} of ${watched} resources failed: ${e.stats.lastError ?? ''}` };
  return { ...base, state: 'ready', message: `${succeeded} of ${watched} resources reconciled${notReady ? `, ${notReady} with children not ready` : ''}` };
}

/** A pipeline Flow reports its controller's health: Stalled on a setup error, failing on runtime errors. */
function summarizePipeline(e: FlowEntry, ctl: DeclarativeController): FlowStatusSummary {
  const h = ctl.health;
  const lastError = h.lastErrors.at(-1);
  const base = { generation: e.flow.metadata.generation ?? 0, watched: 0, succeeded: 0, failed: h.errorCount, ready: 0, notReady: 0, ...(lastError ? { lastError } : {}) };
  if (h.state === 'critical') return { ...base, state: 'invalid', message: `pipeline failed to start: ${h.critical}` };
  if (h.state === 'failing') return { ...base, state: 'failing', message: `pipeline errors: ${lastError ?? ''}` };
  return { ...base, state: 'ready', message: 'pipeline is running' };
}
