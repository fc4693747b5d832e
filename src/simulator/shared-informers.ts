import type { KubeClient, KubeObject, OwnerReference } from '../kube/index.js';
import { dropManagedFields, Informer } from '../kube/informer.js';
import type { Logger } from '../log/index.js';
import { keepGoing, logLoopFault, type LoopFault } from '../log/keep-going.js';

export interface KindRef {
  apiVersion: string;
  kind: string;
}

export interface ObjectListener {
  /** Called for add, update and delete alike: controllers are level-triggered and only need to know what to look at. */
  changed(obj: KubeObject, old: KubeObject | undefined, deleted: boolean): void;
}

/** One informer per kind, every namespace, shared by the controllers that read that kind (client-go's SharedInformerFactory). */
export class SharedInformers {
  private readonly byKind = new Map<string, SharedInformer>();

  constructor(
    private readonly kube: KubeClient,
    private readonly log: Logger,
  ) {}

  for(ref: KindRef): SharedInformer {
    const id = `${ref.apiVersion}/${ref.kind}`;
    let s = this.byKind.get(id);
    if (!s) {
      s = new SharedInformer(this.kube, ref, this.log);
      this.byKind.set(id, s);
    }
    return s;
  }

  /** Starts every informer and resolves once each has its first list (WaitForCacheSync). */
  async start(): Promise<void> {
    await Promise.all([...this.byKind.values()].map((s) => s.start()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.byKind.values()].map((s) => s.stop()));
  }
}

export class SharedInformer {
  private readonly listeners: ObjectListener[] = [];
  /** controller-owner uid → keys of the objects it controls: "pods of this ReplicaSet" without a scan. */
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly informer: Informer;
  private synced: Promise<void>;
  private markSynced!: () => void;
  private readonly onFault: LoopFault;

  constructor(
    kube: KubeClient,
    readonly ref: KindRef,
    log: Logger,
  ) {
    this.onFault = logLoopFault(log);
    this.synced = new Promise((r) => (this.markSynced = r));
    // No controller here reads managedFields, and they are often half of an object's size.
    this.informer = new Informer(
      kube,
      { ...ref, log, transform: dropManagedFields },
      {
        add: (obj) => this.changed(obj, undefined, false),
        update: (obj, old) => this.changed(obj, old, false),
        delete: (obj) => this.changed(obj, undefined, true),
        synced: () => this.markSynced(),
      },
    );
  }

  addListener(l: ObjectListener): void {
    this.listeners.push(l);
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.informer.get(namespace, name);
  }

  list(): KubeObject[] {
    return this.informer.list();
  }

  /** The cached objects whose controller ownerReference names `uid`. */
  controlledBy(uid: string | undefined): KubeObject[] {
    if (!uid) return [];
    const out: KubeObject[] = [];
    for (const key of this.byOwner.get(uid) ?? []) {
      const [ns, name] = splitKey(key);
      const obj = this.informer.get(ns, name);
      if (obj && controllerOf(obj)?.uid === uid) out.push(obj);
    }
    return out;
  }

  start(): Promise<void> {
    this.informer.start();
    return this.synced;
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  private changed(obj: KubeObject, old: KubeObject | undefined, deleted: boolean): void {
    const key = keyOf(obj);
    const before = old ? controllerOf(old)?.uid : undefined;
    const now = deleted ? undefined : controllerOf(obj)?.uid;
    if (before && before !== now) this.unindex(before, key);
    if (deleted) {
      const uid = controllerOf(obj)?.uid;
      if (uid) this.unindex(uid, key);
    }
    if (now) {
      let set = this.byOwner.get(now);
      if (!set) this.byOwner.set(now, (set = new Set()));
      set.add(key);
    }
    // One controller's handler failing must not keep the event from the others.
    for (const l of this.listeners) {
      keepGoing(`${this.ref.kind} informer`, this.onFault, () => l.changed(obj, old, deleted));
    }
  }

  private unindex(uid: string, key: string): void {
    const set = this.byOwner.get(uid);
    set?.delete(key);
    if (set && !set.size) this.byOwner.delete(uid);
  }
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** `namespace/name`, the key every simulator queue uses. */
export function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

export function splitKey(key: string): [namespace: string | undefined, name: string] {
  const i = key.indexOf('/');
  const ns = key.slice(0, i);
  return [ns || undefined, key.slice(i + 1)];
}

/** The owner's queue key from a dependent's controller reference, when it names `kind`. */
export function ownerKeyOf(obj: KubeObject, kind: string): string | undefined {
  const ref = controllerOf(obj);
  return ref && ref.kind === kind ? `${obj.metadata.namespace ?? ''}/${ref.name}` : undefined;
}
