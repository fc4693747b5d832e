import type { ObjectStore } from '../objects/object-store.js';
import { finalizersOf, isObject, metadataOf, pendingFinalizers } from '../objects/meta.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { StoreEvent } from '../storage/index.js';
import { ApiError } from '../http/status.js';
import { OwnerIndex, refFromKey, type ObjectRef } from './owner-index.js';
import { keepGoing } from '../../log/keep-going.js';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
const NAMESPACE_FINALIZER = 'kubernetes';
/** Keys one turn of the start-up scan looks at: a few milliseconds, so requests are served meanwhile. */
const SCAN_WINDOW = 1000;
/** The texts the start-up scan needs: what has owners, or is being deleted (JSON.stringify writes keys so). */
const SCAN_NEEDLES = ['"ownerReferences"', '"deletionTimestamp"'] as const;

/**
 * kube-controller-manager's garbage collector and namespace controller, in process: deleting an
 * owner removes its dependents (background by default, foreground and orphan honoured), and a
 * deleted namespace empties before it goes. Work is queued off the write path, as the real
 * controllers act asynchronously on watch events.
 */
export class GarbageCollector {
  private readonly index = new OwnerIndex();
  private readonly queue: Array<() => void> = [];
  private scheduled = false;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {}

  /** Until the start-up scan has indexed what is stored, work waits: a dependent not yet indexed would be missed. */
  private scanning = false;
  private stopped = false;

  /**
   * Builds the owner index from what is stored, and resumes deletions a restart interrupted: in the
   * background, a window of keys per turn, and only the values that hold an owner reference or a
   * deletion timestamp are read (SQLite picks them), so start does not read every value. Writes
   * meanwhile keep the index current as always; the queued work runs once the scan is done.
   */
  start(): void {
    this.scanning = true;
    let after: string | undefined;
    const step = (): void => {
      if (this.stopped) return;
      try {
        const from = after !== undefined ? { startAfter: after } : {};
        const page = this.objects.store.scan('/registry/', { window: SCAN_WINDOW, containing: SCAN_NEEDLES, ...from });
        for (const v of page.items) {
          keepGoing('garbage-collector', this.objects.onFault, () => this.indexStored(v.key, v.value));
        }
        after = page.next;
      } catch (e) {
        // The store cannot be read: reported, and the work waiting runs on the index as far as it got.
        this.objects.onFault('garbage-collector', e);
        after = undefined;
      }
      if (after !== undefined) return void setImmediate(step);
      this.scanning = false;
      this.drainSoon();
    };
    step();
  }

  /** Ends the start-up scan (the server is closing). */
  stop(): void {
    this.stopped = true;
  }

  /** Whether the owner index holds everything stored (the start-up scan is done). */
  get ready(): boolean {
    return !this.scanning;
  }

  private indexStored(key: string, text: string): void {
    const obj = JSON.parse(text) as JsonObject;
    const ref = refFromKey(key);
    this.index.update(ref, obj);
    const t = this.typeOf(ref);
    if (t && metadataOf(obj).deletionTimestamp !== undefined) this.enqueue(() => this.onDeleting(t, obj));
  }

  readonly onWrite = (t: ResourceType, e: StoreEvent, obj: JsonObject): void => {
    const ref = refFromKey(e.key);
    if (e.type === 'delete') {
      this.index.update(ref, undefined);
      const uid = String(metadataOf(obj).uid ?? '');
      this.enqueue(() => this.ownerGone(uid, obj));
      return;
    }
    this.index.update(ref, obj);
    if (metadataOf(obj).deletionTimestamp !== undefined) this.enqueue(() => this.onDeleting(t, obj));
  };

  private enqueue(work: () => void): void {
    this.queue.push(work);
    this.drainSoon();
  }

  private drainSoon(): void {
    if (this.scheduled || this.scanning || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (let w = this.queue.shift(); w; w = this.queue.shift()) {
        const work = w;
        keepGoing('garbage-collector', this.objects.onFault, () => {
          try {
            work();
          } catch (err) {
            // A dependent that changed or vanished meanwhile is retried by the next event about it.
            if (!(err instanceof ApiError)) throw err;
          }
        });
      }
    });
  }

  /** An owner was removed for good: background deletion of what it owned, and re-check waiting owners. */
  private ownerGone(uid: string, owner: JsonObject): void {
    const finalizers = finalizersOf(owner);
    if (!finalizers.includes(ORPHAN)) for (const dep of this.index.dependents(uid)) this.deleteRef(dep);
    for (const waiting of this.ownersWaitingOn(owner)) this.enqueue(() => this.onDeleting(waiting.t, waiting.obj));
    if (owner.kind === 'Namespace' && owner.apiVersion === 'v1') return;
    const ns = metadataOf(owner).namespace;
    if (typeof ns === 'string') this.recheckNamespace(ns);
  }

  /** An object is being deleted and waits on a finalizer this controller owns. */
  private onDeleting(t: ResourceType, snapshot: JsonObject): void {
    const meta = metadataOf(snapshot);
    const current = this.objects.getStored(t, meta.namespace as string | undefined, String(meta.name));
    if (!current) return;
    const obj = JSON.parse(current.value) as JsonObject;
    const uid = String(metadataOf(obj).uid);
    if (!t.group && t.kind === 'Namespace') return this.finalizeNamespace(t, obj);
    const finalizers = finalizersOf(obj);
    if (finalizers.includes(ORPHAN)) {
      for (const dep of this.index.dependents(uid)) this.dropOwnerRef(dep, uid);
      return this.removeFinalizer(t, obj, ORPHAN);
    }
    if (finalizers.includes(FOREGROUND)) {
      const deps = this.index.dependents(uid);
      for (const dep of deps) this.deleteRef(dep, 'Foreground');
      if (!deps.length) this.removeFinalizer(t, obj, FOREGROUND);
    }
  }

  private finalizeNamespace(t: ResourceType, ns: JsonObject): void {
    const name = String(metadataOf(ns).name);
    let remaining = 0;
    for (const rt of this.typesOnce()) {
      if (!rt.namespaced) continue;
      for (const text of this.objects.list(rt, name).items) {
        remaining++;
        const obj = JSON.parse(text) as JsonObject;
        if (metadataOf(obj).deletionTimestamp === undefined)
          this.objects.delete(rt, name, String(metadataOf(obj).name), {});
      }
    }
    if (remaining) return;
    // Through namespaces/finalize: a write to the Namespace itself keeps its finalizers.
    this.objects.patch(
      t,
      undefined,
      name,
      (cur) => {
        const spec = isObject(cur.spec) ? cur.spec : {};
        const rest = (Array.isArray(spec.finalizers) ? spec.finalizers : []).filter((f) => f !== NAMESPACE_FINALIZER);
        cur.spec = { ...spec, finalizers: rest };
        return cur;
      },
      { subresource: 'finalize' },
    );
  }

  private recheckNamespace(namespace: string): void {
    const nsType = this.registry.lookup('', 'v1', 'namespaces')!;
    const ns = this.objects.getStored(nsType, undefined, namespace);
    if (!ns) return;
    const obj = JSON.parse(ns.value) as JsonObject;
    if (metadataOf(obj).deletionTimestamp !== undefined && pendingFinalizers(obj).includes(NAMESPACE_FINALIZER)) {
      this.enqueue(() => this.finalizeNamespace(nsType, obj));
    }
  }

  private ownersWaitingOn(dependent: JsonObject): Array<{ t: ResourceType; obj: JsonObject }> {
    const refs = metadataOf(dependent).ownerReferences;
    if (!Array.isArray(refs)) return [];
    const out: Array<{ t: ResourceType; obj: JsonObject }> = [];
    for (const r of refs.filter(isObject)) {
      const [group, version] = String(r.apiVersion ?? '').includes('/')
        ? String(r.apiVersion).split('/')
        : ['', String(r.apiVersion)];
      const t = this.registry.lookupKind(group!, version!, String(r.kind));
      if (!t) continue;
      const ns = t.namespaced ? (metadataOf(dependent).namespace as string | undefined) : undefined;
      const owner = this.objects.getStored(t, ns, String(r.name));
      if (!owner) continue;
      const obj = JSON.parse(owner.value) as JsonObject;
      if (metadataOf(obj).uid === r.uid && finalizersOf(obj).includes(FOREGROUND)) out.push({ t, obj });
    }
    return out;
  }

  private deleteRef(ref: ObjectRef, policy?: 'Foreground'): void {
    const t = this.typeOf(ref);
    if (!t || !this.objects.getStored(t, ref.namespace, ref.name)) return;
    this.objects.delete(t, ref.namespace, ref.name, policy ? { propagationPolicy: policy } : {});
  }

  private dropOwnerRef(ref: ObjectRef, ownerUid: string): void {
    const t = this.typeOf(ref);
    if (!t) return;
    this.objects.patch(t, ref.namespace, ref.name, (cur) => {
      const meta = metadataOf(cur);
      const refs = Array.isArray(meta.ownerReferences)
        ? meta.ownerReferences.filter((r) => !isObject(r) || r.uid !== ownerUid)
        : [];
      if (refs.length) meta.ownerReferences = refs;
      else delete meta.ownerReferences;
      return cur;
    });
  }

  private removeFinalizer(t: ResourceType, obj: JsonObject, finalizer: string): void {
    const meta = metadataOf(obj);
    this.objects.patch(t, meta.namespace as string | undefined, String(meta.name), (cur) => {
      const rest = finalizersOf(cur).filter((f) => f !== finalizer);
      if (rest.length) metadataOf(cur).finalizers = rest;
      else delete metadataOf(cur).finalizers;
      return cur;
    });
  }

  private typeOf(ref: ObjectRef): ResourceType | undefined {
    return this.typesOnce().find((t) => t.group === ref.group && t.plural === ref.plural);
  }

  /** One served version per resource: all versions of a CRD share its storage. */
  private typesOnce(): ResourceType[] {
    const seen = new Set<string>();
    return this.registry.all().filter((t) => {
      const k = `${t.group}/${t.plural}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
}
