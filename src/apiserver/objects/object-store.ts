import { zeroValueOf } from '../defaults/zero-values.js';
import type { UserInfo } from '../auth/user-info.js';
import { ApiError, errors } from '../http/status.js';
import { CompactedError, type Backend, type StoreEvent, type StoredValue, type WriteResult } from '../storage/index.js';
import { type JsonObject, type ResourceType, apiVersionOf, collectionPrefix, storageKey } from '../registry/types.js';
import { trackUpdate } from '../patch/apply/index.js';
import { listTypeFor } from './list-types.js';
import { finalizersOf, metadataOf, nowTimestamp, pendingFinalizers, stringField } from './meta.js';
import {
  bumpGeneration,
  isNoopUpdate,
  prepareForCreate,
  prepareForUpdate,
  resetRootsOf,
  trackedView,
} from './strategy.js';
import { decodeContinue, encodeContinue, latestContinue } from './continue-token.js';
import { keepGoing, stderrLoopFault, type LoopFault } from '../../log/keep-going.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/**
 * The built-in kinds whose REST strategy answers AllowUnconditionalUpdate false (kubernetes/kubernetes
 * pkg/registry/…/strategy.go): a PUT must carry the resourceVersion it read.
 */
const NO_UNCONDITIONAL_UPDATE = new Set([
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'certificates.k8s.io/ClusterTrustBundle',
  'certificates.k8s.io/PodCertificateRequest',
  'coordination.k8s.io/Lease',
  'coordination.k8s.io/LeaseCandidate',
  'internal.apiserver.k8s.io/StorageVersion',
  'node.k8s.io/RuntimeClass',
  'policy/PodDisruptionBudget',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/CSIStorageCapacity',
  'storage.k8s.io/VolumeAttachment',
  'storagemigration.k8s.io/StorageVersionMigration',
]);

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore' | undefined;
  subresource?: string;
  /** Warnings to return in `Warning:` headers. */
  warnings?: string[];
  /** The write computed managedFields itself (server-side apply); do not track it as an Update. */
  managedFieldsSet?: boolean;
  /** Who asks for the write, when the server authenticates (RBAC escalation checks); absent for the server's own writes. */
  requester?: UserInfo;
  /**
   * A create's uid, given when admission's dry run already stamped the object with it: what that
   * run generated from the uid (a Job's selector and pod labels) stays true of the stored object,
   * as kube-apiserver stamps a uid once.
   */
  uid?: string;
}

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** A step every write passes through after the generic rules: schema checks, defaulting, CRD status. */
export interface Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject, old: JsonObject | undefined, opts: WriteOptions): void;
}

/** Observes writes as they are applied (CRD registration, garbage collection); `obj` is the stored object. */
export type WriteListener = (t: ResourceType, e: StoreEvent, obj: JsonObject) => void;

export interface ListQuery {
  filter?: (obj: JsonObject) => boolean;
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface ListPage {
  items: string[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

/**
 * Objects on top of the key/value log, the way kube-apiserver's generic registry store sits on
 * etcd: names and namespaces become keys, and every write applies the strategy's rules. All calls
 * are synchronous, so a read-modify-write can never interleave with another request.
 */
export class ObjectStore {
  private readonly admissions: Admission[] = [];
  private readonly storageSteps: Admission[] = [];
  private readonly listeners: Array<{ name: string; listener: WriteListener }> = [];

  /** The type of each write not yet committed, by revision: a failed commit is undone for the listeners too. */
  private readonly uncommitted = new Map<number, ResourceType>();

  /** `onFault` hears of a throw in a write listener or a background loop; the write stands. */
  constructor(
    readonly store: Backend,
    readonly onFault: LoopFault = stderrLoopFault,
  ) {
    store.onRollback((undone) => this.undo(undone));
  }

  addAdmission(a: Admission): void {
    this.admissions.push(a);
  }

  /**
   * A step of a kind's REST storage, run after the field manager has recorded who owns what: what
   * it sets (a Service's allocated cluster IPs) is owned by nobody, as on kube-apiserver.
   */
  addStorageStep(a: Admission): void {
    this.storageSteps.push(a);
  }

  onWrite(listener: WriteListener, name = 'write listener'): void {
    this.listeners.push({ name, listener });
  }

  /** The stored text, in the storage's form (see `presented` for a resource kept in another's storage). */
  getStored(t: ResourceType, namespace: string | undefined, name: string): StoredValue | undefined {
    return this.store.get(storageKey(t, namespace, name));
  }

  get(t: ResourceType, namespace: string | undefined, name: string): JsonObject {
    const s = this.getStored(t, namespace, name);
    if (!s) throw errors.notFound(t, name);
    return fromStorage(t, s.value);
  }

  /** Items as stored texts, in the storage's form; `q.filter` sees that form too. */
  list(t: ResourceType, namespace: string | undefined, q: ListQuery = {}): ListPage {
    const prefix = collectionPrefix(t, namespace);
    let revision: number | undefined;
    let startAfter: string | undefined;
    let seen = 0;
    const token = q.continueToken ? decodeContinue(q.continueToken) : undefined;
    if (token) {
      // A negative revision continues at the latest one; the caller has checked it is not ahead.
      if (token.rv > 0) revision = token.rv;
      seen = token.seen;
      startAfter = prefix + justBefore(token.start);
    } else if (q.resourceVersionMatch === 'Exact' && q.resourceVersion) {
      revision = Number(q.resourceVersion);
    }
    const limit = q.limit && q.limit > 0 ? q.limit : undefined;
    const items: string[] = [];
    let lastKey: string | undefined;
    let more = false;
    try {
      for (;;) {
        const page = this.store.list(prefix, {
          ...(startAfter !== undefined ? { startAfter } : {}),
          ...(limit ? { limit: limit - items.length } : {}),
          ...(revision !== undefined ? { revision } : {}),
        });
        revision = page.revision;
        for (const it of page.items) {
          lastKey = it.key;
          if (!q.filter || q.filter(JSON.parse(it.value) as JsonObject)) items.push(it.value);
        }
        more = page.more;
        if (!more || !limit || items.length >= limit) break;
        startAfter = lastKey;
      }
    } catch (e) {
      if (e instanceof CompactedError) {
        if (token) throw errors.expired(INCONSISTENT_CONTINUE, { continue: latestContinue(token) });
        throw errors.expired(`too old resource version: ${e.requested} (${e.compacted})`);
      }
      throw e;
    }
    const result: ListPage = { items, resourceVersion: String(revision) };
    if (more && lastKey !== undefined) {
      result.continueToken = encodeContinue(revision!, lastKey.slice(prefix.length), seen + items.length);
      if (!q.filter) result.remainingItemCount = Math.max(0, this.store.count(prefix) - seen - items.length);
    }
    return result;
  }

  create(t: ResourceType, namespace: string | undefined, obj: JsonObject, opts: WriteOptions = {}): JsonObject {
    prepareForCreate(t, namespace, obj, opts.uid, opts.requester);
    const meta = metadataOf(obj);
    const name = String(meta.name);
    const ns = t.namespaced ? String(meta.namespace) : undefined;
    const key = storageKey(t, ns, name);
    if (this.store.get(key)) throw errors.alreadyExists(t, name);
    for (const a of this.admissions) a.admit(t, 'CREATE', obj, undefined, opts);
    // A create is compared with the kind's typed zero value, as the real field manager does.
    this.trackManager(t, zeroValueOf(t), obj, opts);
    for (const a of this.storageSteps) a.admit(t, 'CREATE', obj, undefined, opts);
    if (opts.dryRun) return obj;
    const stored = written(
      t,
      name,
      this.store.create(key, (rev) => stamp(t, obj, rev)),
    );
    this.notify(t, stored, obj, 'create', undefined);
    return obj;
  }

  /** PUT: replaces the object (or its status), honouring the resourceVersion precondition in the body. */
  update(
    t: ResourceType,
    namespace: string | undefined,
    name: string,
    next: JsonObject,
    opts: WriteOptions = {},
  ): JsonObject {
    const current = this.getStored(t, namespace, name);
    if (!current) throw errors.notFound(t, name);
    const rv = stringField(metadataOf(next), 'resourceVersion');
    if (!rv && opts.subresource !== 'status' && (t.custom || NO_UNCONDITIONAL_UPDATE.has(`${t.group}/${t.kind}`))) {
      // The generic registry's error names the resource, not the kind (qualifiedResourceFromContext).
      throw errors.invalid({ group: t.group, kind: t.plural }, name, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ]);
    }
    return this.write(t, current, next, rv, opts);
  }

  /** Read-modify-write for patches: `mutate` gets a private copy of the current object. */
  patch(
    t: ResourceType,
    namespace: string | undefined,
    name: string,
    mutate: (current: JsonObject) => JsonObject,
    opts: WriteOptions = {},
  ): JsonObject {
    const current = this.getStored(t, namespace, name);
    if (!current) throw errors.notFound(t, name);
    const next = mutate(fromStorage(t, current.value));
    const rv = stringField(metadataOf(next), 'resourceVersion');
    return this.write(t, current, next, rv, opts);
  }

  private write(
    t: ResourceType,
    current: StoredValue,
    next: JsonObject,
    precondition: string | undefined,
    opts: WriteOptions,
  ): JsonObject {
    const old = fromStorage(t, current.value);
    const name = String(metadataOf(old).name);
    const bodyName = stringField(metadataOf(next), 'name');
    if (bodyName !== undefined && bodyName !== name) {
      throw errors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
    }
    if (precondition && precondition !== String(current.modRevision)) throw errors.conflict(t, name);
    const { object, finalize } = prepareForUpdate(t, old, next, opts.subresource);
    for (const a of this.admissions) a.admit(t, 'UPDATE', object, old, opts);
    bumpGeneration(t, old, object);
    const tracked = trackedView(t, object, next, opts.subresource);
    this.trackManager(t, old, tracked, opts);
    if (tracked !== object) copyManagedFields(tracked, object);
    for (const a of this.storageSteps) a.admit(t, 'UPDATE', object, old, opts);
    if (finalize) return this.remove(t, current, object, opts.dryRun ?? false);
    if (isNoopUpdate(old, object)) return old;
    if (opts.dryRun) {
      metadataOf(object).resourceVersion = String(current.modRevision);
      return object;
    }
    const result = this.store.update(current.key, current.modRevision, (rev) => stamp(t, object, rev));
    const stored = written(t, name, result);
    this.notify(t, stored, object, 'update', current.value);
    return object;
  }

  delete(t: ResourceType, namespace: string | undefined, name: string, opts: DeleteOptions = {}): JsonObject {
    const current = this.getStored(t, namespace, name);
    if (!current) throw errors.notFound(t, name);
    const obj = fromStorage(t, current.value);
    const meta = metadataOf(obj);
    const pre = opts.preconditions ?? {};
    // The namespace REST's Delete checks the preconditions itself, in its own words (by resource).
    if (!t.group && t.kind === 'Namespace') {
      if (pre.uid && pre.uid !== meta.uid)
        throw errors.conflictWith(
          t,
          name,
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(meta.uid)}`,
        );
      if (pre.resourceVersion && pre.resourceVersion !== String(current.modRevision))
        throw errors.conflictWith(
          t,
          name,
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.modRevision}`,
        );
    }
    if (pre.uid && pre.uid !== meta.uid) {
      throw errors.preconditionFailed(
        t,
        name,
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${String(meta.uid)}). The object might have been deleted and then recreated`,
      );
    }
    if (pre.resourceVersion && pre.resourceVersion !== String(current.modRevision)) {
      throw errors.preconditionFailed(
        t,
        name,
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.modRevision}). The object might have been modified`,
      );
    }
    // batch/v1 Jobs and v1 ReplicationControllers orphan their Pods unless told otherwise (their
    // strategies' DefaultGarbageCollectionPolicy).
    const orphansByDefault =
      (t.group === 'batch' && t.kind === 'Job') || (!t.group && t.kind === 'ReplicationController');
    const policy = opts.propagationPolicy ?? (orphansByDefault ? 'Orphan' : undefined);
    const extra = policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
    const finalizers = finalizersOf(obj);
    const addsFinalizer = extra !== undefined && !finalizers.includes(extra);
    if (addsFinalizer) finalizers.push(extra);
    if (finalizers.length === 0 && pendingFinalizers(obj).length === 0) {
      // A Pod is deleted gracefully: BeforeDelete marks it, and one on no node goes at once, marked.
      if (!t.group && t.kind === 'Pod') markDeleted(meta);
      return this.remove(t, current, obj, opts.dryRun ?? false);
    }
    if (meta.deletionTimestamp !== undefined && !addsFinalizer) return obj;
    if (finalizers.length) meta.finalizers = finalizers;
    if (obj.kind === 'Namespace' && !t.group) {
      // The namespace registry marks it without a grace period.
      obj.status = { phase: 'Terminating' };
      if (meta.deletionTimestamp === undefined && typeof meta.generation === 'number') meta.generation += 1;
      meta.deletionTimestamp ??= nowTimestamp();
    } else {
      markDeleted(meta);
    }
    if (opts.dryRun) return obj;
    const result = this.store.update(current.key, current.modRevision, (rev) => stamp(t, obj, rev));
    const stored = written(t, name, result);
    this.notify(t, stored, obj, 'update', current.value);
    return obj;
  }

  /** Field ownership for a non-apply write by a named manager (server-side apply tracks its own). */
  private trackManager(t: ResourceType, before: JsonObject | undefined, after: JsonObject, opts: WriteOptions): void {
    if (!opts.fieldManager || opts.managedFieldsSet) return;
    const managedFields = trackUpdate({
      before,
      after,
      manager: opts.fieldManager,
      apiVersion: apiVersionOf(t),
      now: nowTimestamp(),
      listType: listTypeFor(t),
      statusSubresource: t.statusSubresource,
      ...(opts.subresource ? { subresource: opts.subresource } : {}),
      ...resetRootsOf(t),
    });
    if (managedFields.length) metadataOf(after).managedFields = managedFields as unknown as JsonObject[];
    else delete metadataOf(after).managedFields;
  }

  /** Removes every object of a resource (a deleted CRD's, or a namespace's), finalizers or not. */
  purge(t: ResourceType, namespace?: string): number {
    const prefix = collectionPrefix(t, namespace);
    const victims = this.store.list(prefix).items;
    for (const v of victims) {
      const current = this.store.get(v.key);
      if (current) this.remove(t, current, fromStorage(t, current.value), false);
    }
    return victims.length;
  }

  private remove(t: ResourceType, current: StoredValue, last: JsonObject, dryRun: boolean): JsonObject {
    if (dryRun) return last;
    const name = String(metadataOf(last).name);
    const result = this.store.delete(current.key, current.modRevision, (rev) => stamp(t, last, rev));
    const stored = written(t, name, result);
    this.notify(t, stored, last, 'delete', current.value);
    return last;
  }

  private notify(
    t: ResourceType,
    stored: StoredValue,
    obj: JsonObject,
    type: StoreEvent['type'],
    prevValue: string | undefined,
  ): void {
    const e: StoreEvent = { type, key: stored.key, revision: stored.modRevision, value: stored.value, prevValue };
    this.forgetCommitted();
    this.uncommitted.set(stored.modRevision, t);
    this.tell(t, e, obj);
  }

  /** Entries at or below the committed revision are settled; the map holds one turn's writes at most. */
  private forgetCommitted(): void {
    const committed = this.store.committedRevision();
    for (const rev of this.uncommitted.keys()) {
      if (rev > committed) break;
      this.uncommitted.delete(rev);
    }
  }

  /**
   * The writes of a failed commit, told to the listeners as their reverse (a create as a delete,
   * a delete as a create of what was there, an update as one back), so what they derived (owner
   * index, served CRDs, allocated cluster IPs) matches what is stored.
   */
  private undo(undone: StoreEvent[]): void {
    for (const e of undone) {
      const t = this.uncommitted.get(e.revision);
      this.uncommitted.delete(e.revision);
      if (!t) continue;
      const rev = this.store.currentRevision();
      const type = e.type === 'create' ? 'delete' : e.type === 'delete' ? 'create' : 'update';
      const value = e.type === 'create' ? e.value : (e.prevValue ?? e.value);
      const reverse: StoreEvent = { type, key: e.key, revision: rev, value, prevValue: e.value };
      this.tell(t, reverse, fromStorage(t, reverse.value));
    }
  }

  private tell(t: ResourceType, e: StoreEvent, obj: JsonObject): void {
    for (const { name, listener } of this.listeners) {
      keepGoing(name, this.onFault, () => {
        try {
          listener(t, e, obj);
        } catch (err) {
          // A refused follow-up write (a conflict, a vanished object) is the listener's own business.
          if (!(err instanceof ApiError)) throw err;
        }
      });
    }
  }
}

/**
 * What a compare-and-swap answered, as the API answers it: the stored value, or the Status a lost
 * one is (every write reads the key in the same turn first, so a miss means another write won).
 */
function written(t: ResourceType, name: string, r: WriteResult): StoredValue {
  switch (r.outcome) {
    case 'written':
      return r.stored;
    case 'exists':
      throw errors.alreadyExists(t, name);
    case 'conflict':
      throw errors.conflict(t, name);
    case 'not-found':
      throw errors.notFound(t, name);
  }
}

/** rest.BeforeDelete: the deletion timestamp and grace period set, and the generation moved with them. */
function markDeleted(meta: JsonObject): void {
  if (meta.deletionTimestamp === undefined && typeof meta.generation === 'number') meta.generation += 1;
  meta.deletionTimestamp ??= nowTimestamp();
  meta.deletionGracePeriodSeconds ??= 0;
}

/** The text each written object was stored as, so the reply to the write need not serialise it again. */
const storedText = new WeakMap<JsonObject, string>();

/**
 * Sets metadata.resourceVersion to the revision of the write and serialises once; returns the text to
 * store (converted to the storage's form for a resource kept in another's storage).
 */
function stamp(t: ResourceType, obj: JsonObject, revision: number): string {
  metadataOf(obj).resourceVersion = String(revision);
  const text = JSON.stringify(obj);
  storedText.set(obj, text);
  return t.storage ? JSON.stringify(t.storage.toStorage(obj)) : text;
}

/** A stored text as the object `t` serves. */
function fromStorage(t: ResourceType, text: string): JsonObject {
  const obj = JSON.parse(text) as JsonObject;
  return t.storage ? t.storage.fromStorage(obj) : obj;
}

/**
 * A stored text as `t` answers it: another version's CRD object under the requested version
 * (conversion "None"), an object of another resource's storage converted. Most texts go out as they are.
 */
export function presented(t: ResourceType, text: string): string {
  if (t.storage) return JSON.stringify(fromStorage(t, text));
  return t.custom ? asVersion(text, t) : text;
}

/** A CRD object stored under another served version is shown under the requested one (conversion "None"). */
export function asVersion(text: string, t: ResourceType): string {
  const want = `"apiVersion":${JSON.stringify(apiVersionOf(t))}`;
  // Only a leading apiVersion is known to be the object's own: the same text inside (an owner
  // reference, a nested object) says nothing about the top level, so anything else is parsed.
  if (text.startsWith(`{${want}`)) return text;
  const obj = JSON.parse(text) as JsonObject;
  obj.apiVersion = apiVersionOf(t);
  return JSON.stringify(obj);
}

/**
 * A written object as the JSON it was stored as (write listeners only read it), else the object.
 * For the reply of the request that wrote it.
 */
export function asStored(obj: JsonObject): JsonObject | string {
  return storedText.get(obj) ?? obj;
}

/**
 * The largest key below `start` that no stored key lies between: the store pages from after a key,
 * a continue token names the first key the next page may hold.
 */
function justBefore(start: string): string {
  const last = start.charCodeAt(start.length - 1);
  if (start.length === 0 || last === 0) return start.slice(0, -1);
  return `${start.slice(0, -1)}${String.fromCharCode(last - 1)}\uffff`;
}

const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without ' +
  'the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
  'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or ' +
  'deleted between the time the first chunk was returned and now may show up in the list.';

function copyManagedFields(from: JsonObject, to: JsonObject): void {
  const managedFields = metadataOf(from).managedFields;
  if (managedFields !== undefined) metadataOf(to).managedFields = managedFields;
  else delete metadataOf(to).managedFields;
}
