// controller-runtime's Owns(): one shared informer per child kind, selected by the flowops.io/flow
// label, turning every change of a child into its owner's reconcile key. Runs where the watches
// run (the leader, or `flowops up`); the kinds come from the inventories on the watched objects,
// so a new leader learns them from its first list of the watched kinds.

import { FLOW_ANNOTATION, FLOW_LABEL, OWNER_ANNOTATION } from '../executors/types.js';
import { dropManagedFields, Informer } from '../kube/informer.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { inventoryKinds, readInventory } from '../engine/child-inventory.js';

/** A child's way back to the reconcile key of its owner. */
export interface ChildOwner {
  /** `namespace/name` of the Flow (the flowops.io/flow annotation). */
  flow: string;
  kind: string;
  namespace: string | undefined;
  name: string;
}

export interface ChildWatchesDeps {
  kube: KubeClient;
  log: Logger;
  /**
   * Enqueues the owner's key; the caller resolves the owner's apiVersion from the Flow's watch and
   * checks that the child is in the owner's inventory (objects of onError/onDelete steps carry the
   * same annotations but are not children).
   */
  enqueueOwner(owner: ChildOwner, child: KubeObject, statusOnly: boolean, deleted?: boolean): void;
  /**
   * An update that echoes this process' own apply (judged by the run that made it), or is held
   * until an apply in flight answers and `release`d then if it was not its echo (AppliedCache).
   */
  echoes?(child: KubeObject, release: () => void): boolean;
}

export class ChildWatches {
  private readonly informers = new Map<string, Informer>();
  private stopped = false;

  constructor(private readonly deps: ChildWatchesDeps) {}

  /** Makes sure the kinds listed in a watched object's inventory are watched. */
  observeOwner(owner: KubeObject): void {
    if (this.stopped) return;
    const inventory = readInventory(owner);
    if (!inventory.length) return;
    for (const kindKey of inventoryKinds(inventory)) if (!this.informers.has(kindKey)) this.start(kindKey);
  }

  /** A child as its informer holds it; undefined when not held (not watched, not synced yet, or gone). */
  get(ref: { apiVersion: string; kind: string; namespace?: string | undefined; name: string }): KubeObject | undefined {
    return this.informers.get(`${ref.apiVersion}\u001f${ref.kind}`)?.get(ref.namespace, ref.name);
  }

  /** Children held in the caches, for the bench and for tests. */
  cachedChildren(): number {
    let n = 0;
    for (const i of this.informers.values()) n += i.list().length;
    return n;
  }

  watchedKinds(): string[] {
    return [...this.informers.keys()].map((k) => k.replace('\u001f', ' '));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
    this.informers.clear();
  }

  private start(kindKey: string): void {
    const [apiVersion, kind] = kindKey.split('\u001f') as [string, string];
    // The first list's adds are not changes: the owners' own informers enqueue every owner at
    // start-up, which also covers whatever happened to children while nobody watched.
    let synced = false;
    const enqueue = (child: KubeObject, statusOnly = false, deleted = false): void => {
      const owner = ownerOf(child);
      if (owner) this.deps.enqueueOwner(owner, child, statusOnly, deleted);
    };
    const informer = new Informer(
      this.deps.kube,
      { apiVersion, kind, labelSelector: FLOW_LABEL, log: this.deps.log, transform: dropManagedFields },
      {
        add: (child) => {
          if (synced) enqueue(child);
        },
        update: (child, old) => {
          if (!childChangeMatters(old, child)) return;
          const statusOnly = statusOnlyChange(old, child);
          if (!this.deps.echoes?.(child, () => enqueue(child, statusOnly))) enqueue(child, statusOnly);
        },
        delete: (child) => enqueue(child, false, true),
        synced: () => void (synced = true),
      },
    );
    this.informers.set(kindKey, informer);
    this.deps.log.info({ kind: `${kind}.${apiVersion}` }, 'watching child kind');
    informer.start();
  }
}

/** The owner a child's annotations name, or undefined for an object FlowOps did not stamp. */
export function ownerOf(child: KubeObject): ChildOwner | undefined {
  const a = child.metadata.annotations ?? {};
  const flow = a[FLOW_ANNOTATION];
  const owner = a[OWNER_ANNOTATION];
  if (!flow || !owner || !flow.includes('/')) return undefined;
  const parts = owner.split('/');
  if (parts.length === 2) return { flow, kind: parts[0]!, namespace: undefined, name: parts[1]! };
  if (parts.length === 3) return { flow, kind: parts[0]!, namespace: parts[1]!, name: parts[2]! };
  return undefined;
}

/**
 * Which child updates re-run the owner: a spec change (generation), a status change (readiness may
 * have moved), labels, annotations, deletion progress. A write that changed only the
 * resourceVersion or managedFields (a no-op apply on some servers) does not, or a reconcile's own
 * apply could trigger the next reconcile for ever.
 */
export function childChangeMatters(old: KubeObject, obj: KubeObject): boolean {
  const a = old.metadata;
  const b = obj.metadata;
  if (a.generation !== undefined && b.generation !== undefined) {
    if (a.generation !== b.generation || a.deletionTimestamp !== b.deletionTimestamp) return true;
    return !same(old.status, obj.status) || !same(a.labels, b.labels) || !same(a.annotations, b.annotations);
  }
  return strip(old) !== strip(obj);
}

/**
 * Only the status moved (readiness may have): the owner re-judges its children without running
 * its steps. Kinds without a generation cannot tell a spec change from a status one: never.
 */
export function statusOnlyChange(old: KubeObject, obj: KubeObject): boolean {
  const a = old.metadata;
  const b = obj.metadata;
  if (a.generation === undefined || b.generation === undefined || a.generation !== b.generation) return false;
  if (a.deletionTimestamp !== b.deletionTimestamp) return false;
  if (!same(a.labels, b.labels) || !same(a.annotations, b.annotations)) return false;
  if (!same(a.ownerReferences, b.ownerReferences) || !same(a.finalizers, b.finalizers)) return false;
  return !same(old.status, obj.status);
}

function strip(o: KubeObject): string {
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = o.metadata;
  return JSON.stringify({ ...o, metadata: meta });
}

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
