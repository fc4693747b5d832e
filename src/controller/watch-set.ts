// The singleton watches (the leader, or `flowops up`): per Flow an informer on its watched kind
// whose events become queue keys, the child-kind informers whose events re-run the owners, the
// CRD informer that retries kinds not served yet, pipeline Flows as declarative controllers, and
// the Flow cleanup finalizer. No reconcile runs here.

import {
  type ObjectRef,
  type KubeObject,
  refOf,
  type KubeClient,
  UnknownKindError,
  hasFinalizer,
  setFinalizer,
  Informer,
  type InformerHandlers,
} from '../kube/index.js';
import { type RunCause, childId, readInventory } from '../engine/index.js';
import type { Logger } from '../log/index.js';
import {
  type DeclarativeController,
  flowPipelineController,
  crdViewBackend,
  type ViewBackend,
} from '../operator/index.js';
import type { WorkQueue } from '../queue/index.js';
import { ChildWatches, type ChildOwner } from './child-watches.js';
import type { FlowEntry, FlowListener, FlowRegistry } from './flow-registry.js';
import type { FlowStatusReporter, WatchFacts } from './flow-status-reporter.js';
import { encodeKey } from './keys.js';
import { updateNeedsReconcile } from './predicates.js';
import type { RunCauseLog } from './run-causes.js';
import { RECONCILE_REQUEST_ANNOTATION, type RunTrigger } from '../api/index.js';
import { cachedObject, watchedInformer, watchesKindOf, watchOf, watchSignature } from './watched-informer.js';

/** On a Flow with onDelete: lets FlowOps release the watched objects' finalizers before the Flow goes. */
export const FLOW_CLEANUP_FINALIZER = 'flowops.io/cleanup';

interface Watched {
  entry: FlowEntry;
  informer: Informer | undefined;
  signature: string;
  synced: boolean;
  /**
   * Bumped by every restart of the informer: only the newest informer's handlers may mark the
   * watch synced or enqueue (an informer being replaced can still finish its list).
   */
  generation: number;
  kindMissing: string | undefined;
  /** A Flow with pipeline + target runs as a declarative controller instead of steps. */
  pipeline: DeclarativeController | undefined;
  pipelineSignature: string;
  /** The Flow's flowops.io/reconcile-requested-at last seen: a new one makes its runs 'manual'. */
  requested?: string | undefined;
  /**
   * Why the adds of the informer's first list run: the Flow is new or its watch changed
   * ('flow-change'), or this process started watching a Flow that was already there ('resync').
   */
  firstList?: RunTrigger;
}

export interface WatchSetDeps {
  kube: KubeClient;
  log: Logger;
  registry: FlowRegistry;
  /** Where watch events go; the leader's BullMQ producer, or the in-process queue. */
  queue: Pick<WorkQueue, 'add'>;
  fieldManager: string;
  reporter: FlowStatusReporter;
  /** Lets a watched object go (its finalizer) when its Flow can no longer run. */
  release(ref: ObjectRef): Promise<void>;
  /**
   * Told of every watched object the informers see. The leader counts the Ready conditions the
   * workers wrote (its only view of their outcomes); `flowops up` counts outcomes directly.
   */
  onWatched?(entry: FlowEntry, obj: KubeObject): void;
  /** Where pipeline Flows keep view targets (default: CRD-backed views on the same server). */
  views?: ViewBackend;
  /** Told why each key is enqueued: in memory (`flowops up`) or in Redis for the workers (the leader). */
  causes?: RunCauseLog;
  /** A child update that echoes an apply of this process (ChildWatchesDeps.echoes). */
  echoes?(child: KubeObject, release: () => void): boolean;
  /**
   * A sharded `flowops run` replica: only the watched objects of its shards are cached and
   * enqueued, and a Flow's own chores (its pipeline, its cleanup finalizer) fall to the replica
   * whose shards hold the Flow's namespace/name. Unset: everything (one leader, `flowops up`).
   */
  shard?: { owns(namespace: string | undefined, name: string): boolean };
}

export class WatchSet implements FlowListener {
  private readonly byFlow = new Map<string, Watched>();
  /** Flows older than this were there before this process watched them (their first runs: 'resync'). */
  private readonly startedAt = Date.now();
  private crdInformer: Informer | undefined;
  private views: ViewBackend | undefined;
  /** The child-kind informers (Owns()). */
  readonly children: ChildWatches;

  constructor(private readonly deps: WatchSetDeps) {
    const echoes = deps.echoes;
    this.children = new ChildWatches({
      kube: deps.kube,
      log: deps.log,
      enqueueOwner: (o, child, statusOnly, deleted) => this.enqueueOwner(o, child, statusOnly, deleted),
      ...(echoes ? { echoes } : {}),
    });
    deps.registry.subscribe(this);
  }

  start(): void {
    // A kind that a Flow waits for may be served as soon as its CRD appears.
    this.crdInformer ??= new Informer(
      this.deps.kube,
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', log: this.deps.log },
      {
        add: () => this.retryMissingKinds(),
        update: () => undefined,
        delete: () => undefined,
      },
    );
    this.crdInformer.start();
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.crdInformer?.stop(),
      this.children.stop(),
      ...[...this.byFlow.values()].flatMap((w) => [w.informer?.stop(), w.pipeline?.stop()]),
    ]);
  }

  /** What the Flow's status reports about its watches. */
  facts(entry: FlowEntry): WatchFacts {
    const w = this.byFlow.get(entry.key);
    return { watched: w?.informer?.list().length ?? 0, kindMissing: w?.kindMissing, pipeline: w?.pipeline };
  }

  /** Every Flow's informer has made its first list (a kind not served yet has nothing to list). */
  allSynced(): boolean {
    for (const w of this.byFlow.values()) if (w.informer && !w.synced) return false;
    return true;
  }

  /** The Flow's watched objects as its informer holds them; undefined until it has synced. */
  objects(entry: FlowEntry): KubeObject[] | undefined {
    const w = this.byFlow.get(entry.key);
    return w?.synced && w.informer ? w.informer.list() : undefined;
  }

  /** The watched object as the informers last saw it (undefined: not cached, ask the server); see cachedObject. */
  cached(ref: ObjectRef, seen?: string): KubeObject | undefined {
    for (const w of this.byFlow.values()) {
      if (!w.synced || !w.informer || !watchesKindOf(w.entry.flow, ref) || !w.informer.get(ref.namespace, ref.name))
        continue;
      return cachedObject(w.informer, ref, seen);
    }
    return undefined;
  }

  /** Every watched key, for a resync after Redis lost its queue or on leader start. */
  allKeys(): string[] {
    const keys: string[] = [];
    for (const [key, w] of this.byFlow) for (const obj of w.informer?.list() ?? []) keys.push(keyFor(key, obj));
    return keys;
  }

  changed(entry: FlowEntry, rerun: boolean): void {
    const w = this.watchedOf(entry);
    const requested = entry.flow.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
    const manual = requested !== undefined && requested !== w.requested;
    w.requested = requested;
    void this.ensureCleanupFinalizer(entry);
    if (this.syncPipeline(entry, w)) return this.deps.reporter.schedule(entry);
    const signature = watchSignature(entry.flow);
    if (signature !== w.signature || !w.informer) {
      w.signature = signature;
      void this.restartInformer(entry, w);
    } else if (rerun) {
      // Hot reload: every watched object runs again under the new spec.
      const trigger = manual ? 'manual' : 'flow-change';
      for (const obj of w.informer.list()) this.add(keyFor(entry.key, obj), undefined, 'other', trigger);
    }
    this.deps.reporter.schedule(entry);
  }

  deleting(entry: FlowEntry): void {
    void this.cleanupDeletedFlow(entry);
  }

  removed(entry: FlowEntry): void {
    const w = this.byFlow.get(entry.key);
    this.byFlow.delete(entry.key);
    this.deps.reporter.removed(entry);
    if (!w) return;
    void (async () => {
      const objects = w.informer?.list() ?? [];
      await w.pipeline?.stop();
      await w.informer?.stop();
      // Without a cleanup finalizer the Flow may already be gone; release whatever still waits on it.
      // Release reads each object afresh: the cache may predate a finalizer added by a last reconcile.
      for (const obj of objects) await this.deps.release(refOf(obj)).catch(() => undefined);
    })();
  }

  private watchedOf(entry: FlowEntry): Watched {
    let w = this.byFlow.get(entry.key);
    if (!w)
      this.byFlow.set(
        entry.key,
        (w = {
          entry,
          informer: undefined,
          signature: '',
          synced: false,
          generation: 0,
          kindMissing: undefined,
          pipeline: undefined,
          pipelineSignature: '',
        }),
      );
    return w;
  }

  /**
   * Runs a pipeline Flow as a one-controller Operator (restarted when its watch, pipeline or
   * target change) and stops a pipeline that is no longer wanted. True when the Flow is a pipeline
   * Flow, so no step informer runs for it.
   */
  private syncPipeline(entry: FlowEntry, w: Watched): boolean {
    const spec = entry.def?.spec;
    const wanted = spec?.pipeline !== undefined && spec.target !== undefined && !spec.suspend && this.ownsFlow(entry);
    const signature = wanted ? JSON.stringify([spec.watch, spec.pipeline, spec.target]) : '';
    if (signature !== w.pipelineSignature) {
      const old = w.pipeline;
      w.pipeline = undefined;
      w.pipelineSignature = signature;
      void (async () => {
        await old?.stop();
        if (!wanted || w.pipelineSignature !== signature || this.byFlow.get(entry.key) !== w) return;
        this.views ??= this.deps.views ?? crdViewBackend(this.deps.kube);
        const ctl = flowPipelineController(entry.def!.namespace, entry.def!.name, spec, {
          kube: this.deps.kube,
          views: this.views,
          log: this.deps.log,
          onChange: () => this.deps.reporter.schedule(entry),
        });
        w.pipeline = ctl;
        await ctl.start();
      })();
    }
    if (spec?.pipeline === undefined) return false;
    const informer = w.informer;
    w.informer = undefined;
    w.generation++;
    w.signature = '';
    void informer?.stop();
    return true;
  }

  /** Whether this process does the Flow's own chores (always, unless sharded). */
  private ownsFlow(entry: FlowEntry): boolean {
    return this.deps.shard?.owns(entry.flow.metadata.namespace, entry.flow.metadata.name ?? '') ?? true;
  }

  private async cleanupDeletedFlow(entry: FlowEntry): Promise<void> {
    const objects = this.byFlow.get(entry.key)?.informer?.list() ?? [];
    for (const obj of objects) await this.deps.release(refOf(obj)).catch(() => undefined);
    if (!this.ownsFlow(entry)) return;
    await setFinalizer(this.deps.kube, entry.flow, false, this.deps.fieldManager, FLOW_CLEANUP_FINALIZER).catch(
      (err: unknown) => this.deps.log.warn({ err, flow: entry.key }, 'could not remove the Flow cleanup finalizer'),
    );
  }

  private async ensureCleanupFinalizer(entry: FlowEntry): Promise<void> {
    const wants = entry.def?.spec.onDelete !== undefined;
    if (!this.ownsFlow(entry)) return;
    if (wants === hasFinalizer(entry.flow, FLOW_CLEANUP_FINALIZER) || (!wants && !entry.def)) return;
    await setFinalizer(this.deps.kube, entry.flow, wants, this.deps.fieldManager, FLOW_CLEANUP_FINALIZER).catch(
      (err: unknown) => this.deps.log.warn({ err, flow: entry.key }, 'could not update the Flow cleanup finalizer'),
    );
  }

  private async restartInformer(entry: FlowEntry, w: Watched): Promise<void> {
    const old = w.informer;
    w.informer = undefined;
    w.synced = false;
    const generation = ++w.generation;
    const created = Date.parse(entry.flow.metadata.creationTimestamp ?? '');
    // creationTimestamp has whole seconds: a Flow made in the second this process started is new.
    w.firstList = !old && created < this.startedAt - 1000 ? 'resync' : 'flow-change';
    await old?.stop();
    const watch = watchOf(entry.flow);
    // A later restart began while this one waited for the old informer: that one wins.
    if (!watch?.apiVersion || !watch.kind || this.byFlow.get(entry.key) !== w || w.generation !== generation) return;
    try {
      const shard = this.deps.shard;
      const keep = shard ? (namespace: string | undefined, name: string) => shard.owns(namespace, name) : undefined;
      const spec = { ...watch, apiVersion: watch.apiVersion, kind: watch.kind };
      w.informer = watchedInformer(this.deps.kube, this.deps.log, spec, this.handlers(entry, w, generation), keep);
    } catch (err) {
      entry.invalid ??= (err as Error).message;
      return;
    }
    w.informer.start();
  }

  /** Watch events become queue keys, with the version seen as a cache hint. */
  private handlers(entry: FlowEntry, w: Watched, generation: number): InformerHandlers {
    const current = (): boolean => w.generation === generation && this.byFlow.get(entry.key) === w;
    const seen = (obj: KubeObject): void => {
      this.deps.onWatched?.(entry, obj);
      this.children.observeOwner(obj);
    };
    return {
      add: (obj) => {
        if (!current()) return;
        seen(obj);
        // The first list's adds (a new or restarted watch, after a Flow change) are not the object's changes.
        const trigger = w.synced ? 'object-change' : (w.firstList ?? 'flow-change');
        this.add(keyFor(entry.key, obj), obj.metadata.resourceVersion, 'other', trigger);
      },
      update: (obj, old) => {
        if (!current()) return;
        seen(obj);
        if (!updateNeedsReconcile(old, obj)) return;
        const requested = (o: KubeObject) => o.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
        const trigger = requested(obj) !== requested(old) ? 'manual' : 'object-change';
        this.add(keyFor(entry.key, obj), obj.metadata.resourceVersion, 'other', trigger);
      },
      delete: (obj) => {
        if (current()) this.deps.reporter.forget(entry, obj);
      },
      synced: () => {
        if (!current()) return;
        w.synced = true;
        w.kindMissing = undefined;
        this.deps.reporter.schedule(entry);
      },
      error: (err) => {
        if (current() && err instanceof UnknownKindError) {
          w.kindMissing = err.message;
          this.deps.reporter.schedule(entry);
        }
      },
    };
  }

  /**
   * A child changed: its owner runs again (Owns()), if the Flow its annotation names still watches
   * that kind and the owner's inventory lists the child (objects of onError/onDelete steps carry
   * the same annotations but are not children). An owner missing from the cache is gone.
   */
  private add(key: string, seen?: string, cause: RunCause = 'other', trigger?: RunTrigger): void {
    this.deps.causes?.mark(key, cause, trigger);
    this.deps.queue.add(key, seen);
  }

  private enqueueOwner(owner: ChildOwner, child: KubeObject, statusOnly: boolean, deleted = false): void {
    const [flowNamespace, flowName] = splitFlowKey(owner.flow);
    const entry = this.deps.registry.get(flowNamespace, flowName);
    const watch = entry?.def?.spec.watch;
    if (!entry || !watch || watch.kind !== owner.kind || entry.flow.metadata.deletionTimestamp) return;
    const cached = this.byFlow.get(entry.key)?.informer?.get(owner.namespace, owner.name);
    if (!cached || !inInventory(cached, child)) return;
    const trigger = deleted ? 'child-deleted' : statusOnly ? 'child-status' : 'child-drift';
    this.add(keyFor(entry.key, cached), undefined, statusOnly ? 'child-status' : 'other', trigger);
  }

  private retryMissingKinds(): void {
    this.deps.kube.discovery.invalidate();
    for (const w of this.byFlow.values())
      if (w.kindMissing || (w.informer && !w.synced)) void this.restartInformer(w.entry, w);
  }
}

function inInventory(owner: KubeObject, child: KubeObject): boolean {
  const id = childId({
    apiVersion: child.apiVersion,
    kind: child.kind,
    namespace: child.metadata.namespace,
    name: child.metadata.name ?? '',
  });
  return readInventory(owner).some((e) => childId(e) === id);
}

export function splitFlowKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

/** The reconcile key of a watched object for the Flow `flowKey` (namespace/name). */
function keyFor(flowKey: string, obj: KubeObject): string {
  const [flowNamespace, flowName] = splitFlowKey(flowKey);
  return encodeKey({ flowNamespace, flowName, resource: refOf(obj) });
}
