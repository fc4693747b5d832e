// Watches what the web view shows and tells subscribers that something changed, so that open
// pages refetch within a second. Kinds are discovered as they appear: every Flow's watched kind,
// the child kinds in the inventories of watched objects, and the kinds those kinds' controllers
// make (a StatefulSet's Pods).

import { FLOW_API_VERSION, FLOW_KIND, RUNHISTORY_KIND, FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/index.js';
import { readInventory } from '../engine/child-inventory.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { dropManagedFields, Informer } from '../kube/informer.js';
import type { Logger } from '../log/index.js';
import { OPERATOR_API_VERSION, OPERATOR_KIND } from '../operator/types.js';
import { PREVIEW_LABEL } from '../preview/preview-store.js';
import { ownedKindsOf } from './owned-kinds.js';
import type { ChangeMessage } from './types.js';

type Listener = (changes: ChangeMessage[]) => void;

/** Changes are sent in batches this far apart: a reconcile touches several objects at once. */
const BATCH_MS = 100;
/** A kind's key among the feed's informers. */
const kindId = (apiVersion: string, kind: string): string => `${apiVersion}\u001f${kind}`;

export class ChangeFeed {
  private readonly informers = new Map<string, Informer>();
  private readonly synced = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private pending: ChangeMessage[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.watch(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND);
    this.watch(FLOW_API_VERSION, FLOW_KIND, (flow) => this.followWatchedKind(flow));
    this.watch(OPERATOR_API_VERSION, OPERATOR_KIND);
    this.watch('v1', 'Event');
    // Pull-request previews (src/preview/preview-store.ts): only the ConfigMaps that hold one.
    this.watch('v1', 'ConfigMap', undefined, PREVIEW_LABEL);
    // A RunHistory is written a moment after its run (its runs are batched, src/engine/run-batch.ts):
    // its change is told as a change of the object it records, whose page shows the run's times.
    this.watch(FLOW_API_VERSION, RUNHISTORY_KIND, undefined, undefined, (history) => {
      const object = (history.spec as { object?: Partial<ChangeMessage> } | undefined)?.object;
      if (!object?.apiVersion || !object.kind || !object.name) return undefined;
      return {
        apiVersion: object.apiVersion,
        kind: object.kind,
        name: object.name,
        ...(object.namespace ? { namespace: object.namespace } : {}),
      };
    });
  }

  /** Also watch this kind (an object page of a kind no Flow names), and the kinds its controller makes. */
  follow(apiVersion: string, kind: string): void {
    this.watch(apiVersion, kind);
  }

  /**
   * Every Event, from this feed's own watch once it has listed them (else undefined): the overview's
   * recent Events without listing them all from the API server on every refetch. Seen with the
   * feed's identity, so only for a reader with the same (the admin view of `up`).
   */
  events(): KubeObject[] | undefined {
    const id = kindId('v1', 'Event');
    return this.synced.has(id) ? this.informers.get(id)?.list() : undefined;
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.listeners.clear();
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  private followWatchedKind(flow: KubeObject): void {
    const watch = (flow.spec as { watch?: { apiVersion?: unknown; kind?: unknown } } | undefined)?.watch;
    if (typeof watch?.apiVersion === 'string' && typeof watch.kind === 'string')
      this.watch(watch.apiVersion, watch.kind, (obj) => this.followChildKinds(obj));
  }

  private followChildKinds(watched: KubeObject): void {
    for (const e of readInventory(watched)) this.watch(e.apiVersion, e.kind);
  }

  /** One informer per kind, started once; `inspect` sees every object it delivers. */
  private watch(
    apiVersion: string,
    kind: string,
    inspect?: (obj: KubeObject) => void,
    labelSelector?: string,
    /** What a change of such an object is told as (default: the object itself; undefined: nothing). */
    told?: (obj: KubeObject) => ChangeMessage | undefined,
  ): void {
    const id = kindId(apiVersion, kind);
    if (this.stopped || this.informers.has(id)) return;
    const seen = (obj: KubeObject): void => {
      inspect?.(obj);
      const change = told
        ? told(obj)
        : {
            apiVersion: obj.apiVersion,
            kind: obj.kind,
            name: obj.metadata.name ?? '',
            ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
          };
      if (change) this.queue(change);
    };
    const informer = new Informer(
      this.kube,
      { apiVersion, kind, log: this.log, transform: dropManagedFields, ...(labelSelector ? { labelSelector } : {}) },
      {
        add: seen,
        update: seen,
        delete: seen,
        synced: () => void this.synced.add(id),
        error: (err) => this.log.debug({ err, kind }, 'web view watch retrying'),
      },
    );
    this.informers.set(id, informer);
    informer.start();
    for (const owned of ownedKindsOf(apiVersion, kind)) this.watch(owned.apiVersion, owned.kind);
  }

  private queue(change: ChangeMessage): void {
    if (this.listeners.size === 0) return;
    this.pending.push(change);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    for (const l of this.listeners) l(batch);
  }
}
