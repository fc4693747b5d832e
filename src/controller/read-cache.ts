// A worker's read cache of the watched objects (controller-runtime's cached client): one
// informer per Flow's watched kind that enqueues nothing (the leader's watches do), so most
// reconciles read their object without a GET.

import type { KubeClient, Informer } from '../kube/index.js';
import { refOf, type KubeObject, type ObjectRef } from '../kube/types.js';
import type { Logger } from '../log/index.js';
import type { WorkQueue } from '../queue/index.js';
import type { FlowEntry, FlowListener, FlowRegistry } from './flow-registry.js';
import { encodeKey } from './keys.js';
import { labelSelectorString } from './label-selector.js';
import type { RunCauseLog } from './run-causes.js';
import { RECONCILE_REQUEST_ANNOTATION } from '../api/reconcile-request.js';
import { cachedObject, watchedInformer, watchesKindOf, watchOf, watchSignature } from './watched-informer.js';

interface Cached {
  entry: FlowEntry;
  informer: Informer;
  signature: string;
  synced: boolean;
}

export interface ReadCacheDeps {
  kube: KubeClient;
  log: Logger;
  registry: FlowRegistry;
  /** Where re-derived keys go after a Flow change (the BullMQ producer). */
  queue: Pick<WorkQueue, 'add'>;
  /** Told why the re-derived keys run (a Flow change, or a `flowops reconcile` of the Flow), for their record. */
  causes?: Pick<RunCauseLog, 'mark'>;
}

export class ReadCache implements FlowListener {
  private readonly byFlow = new Map<string, Cached>();
  /** Each Flow's flowops.io/reconcile-requested-at last seen: a new one makes the requeued runs 'manual'. */
  private readonly requested = new Map<string, string | undefined>();

  constructor(private readonly deps: ReadCacheDeps) {
    deps.registry.subscribe(this);
  }

  /** The watched object at exactly `seen` (or any cached version without it); undefined: ask the server. */
  cached(ref: ObjectRef, seen?: string): KubeObject | undefined {
    for (const c of this.byFlow.values()) {
      if (!c.synced || !watchesKindOf(c.entry.flow, ref) || !c.informer.get(ref.namespace, ref.name)) continue;
      return cachedObject(c.informer, ref, seen);
    }
    return undefined;
  }

  changed(entry: FlowEntry, rerun: boolean): void {
    const requested = entry.flow.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
    const manual = requested !== undefined && requested !== this.requested.get(entry.key);
    this.requested.set(entry.key, requested);
    if (rerun) void this.requeueWatched(entry, manual);
    const spec = entry.def?.spec;
    const signature = spec && spec.pipeline === undefined ? watchSignature(entry.flow) : '';
    const current = this.byFlow.get(entry.key);
    if (current?.signature === signature) return;
    void current?.informer.stop();
    this.byFlow.delete(entry.key);
    const watch = watchOf(entry.flow);
    if (!signature || !watch?.apiVersion || !watch.kind) return;
    try {
      let c: Cached | undefined;
      const informer = watchedInformer(
        this.deps.kube,
        this.deps.log,
        { ...watch, apiVersion: watch.apiVersion, kind: watch.kind },
        {
          add: () => undefined,
          update: () => undefined,
          delete: () => undefined,
          synced: () => void (c && (c.synced = true)),
        },
      );
      c = { entry, informer, signature, synced: false };
      this.byFlow.set(entry.key, c);
      informer.start();
    } catch (err) {
      this.deps.log.debug({ err, flow: entry.key }, 'no read cache for a Flow with a bad labelSelector');
    }
  }

  removed(entry: FlowEntry): void {
    this.requested.delete(entry.key);
    void this.byFlow.get(entry.key)?.informer.stop();
    this.byFlow.delete(entry.key);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.byFlow.values()].map((c) => c.informer.stop()));
    this.byFlow.clear();
  }

  /**
   * A new Flow generation reached this worker. The leader enqueued the watched objects when it saw
   * the change, but a job may have run here against the old spec before this worker's watch caught
   * up; enqueueing them again (dedup collapses repeats) guarantees a run under the new spec. Before
   * the first sync this is the leader's start-up resync, so it is skipped.
   */
  private async requeueWatched(entry: FlowEntry, manual: boolean): Promise<void> {
    if (!this.deps.registry.isSynced) return;
    const watch = watchOf(entry.flow);
    if (!watch?.apiVersion || !watch.kind) return;
    try {
      const selector = labelSelectorString(watch.labelSelector);
      const { items } = await this.deps.kube.list(watch.apiVersion, watch.kind, {
        ...(watch.namespace ? { namespace: watch.namespace } : {}),
        ...(selector ? { labelSelector: selector } : {}),
      });
      const { namespace: flowNamespace, name: flowName } = entry.flow.metadata;
      for (const obj of items) {
        const key = encodeKey({
          flowNamespace: flowNamespace ?? 'default',
          flowName: flowName ?? '',
          resource: refOf(obj),
        });
        this.deps.causes?.mark(key, 'other', manual ? 'manual' : 'flow-change');
        this.deps.queue.add(key);
      }
    } catch (err) {
      this.deps.log.debug({ err, flow: entry.key }, 'could not list the watched objects after a Flow change');
    }
  }
}
