import { anonymousUser, type UserInfo } from '../auth/user-info.js';
import { randomUUID } from 'node:crypto';
import { errors } from '../http/status.js';
import { type JsonObject, type ResourceType, apiVersionOf } from '../registry/types.js';
import {
  deepEqual,
  dropEmptyMetadataFields,
  finalizersOf,
  isObject,
  metadataOf,
  nowTimestamp,
  pendingFinalizers,
  stringField,
} from './meta.js';
import { isViewGroup } from '../crd/view-groups.js';
import { validateName } from './names.js';
import { cloneJson } from './json-clone.js';

/** Fields the server owns: whatever a client sends for them is replaced. */
const SERVER_OWNED = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'resourceVersion',
  'selfLink',
];

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function checkTypeMeta(t: ResourceType, obj: JsonObject): void {
  const apiVersion = stringField(obj, 'apiVersion');
  const kind = stringField(obj, 'kind');
  if (apiVersion !== undefined && apiVersion !== apiVersionOf(t)) {
    throw errors.badRequest(
      `the API version in the data (${apiVersion}) does not match the expected API version (${apiVersionOf(t)})`,
    );
  }
  if (kind !== undefined && kind !== t.kind) {
    if (t.custom)
      throw errors.badRequest(`the kind in the data (${kind}) does not match the expected kind (${t.kind})`);
    // The codec decodes the body as its own kind and finds no conversion into the internal type.
    const version = (apiVersion ?? apiVersionOf(t)).split('/').pop()!;
    const internal = t.group ? t.group.split('.')[0]! : 'core';
    throw errors.badRequest(
      `${kind} in version "${version}" cannot be handled as a ${t.kind}: converting (${version}.${kind}) to (${internal}.${t.kind}): unknown conversion`,
    );
  }
  obj.apiVersion = apiVersionOf(t);
  obj.kind = t.kind;
}

/**
 * Status strategies that keep the whole stored ObjectMeta (ResetObjectMetaForStatus, or `ObjectMeta =
 * old.ObjectMeta`) in k8s.io/kubernetes v1.34 pkg/registry; custom resources' statusStrategy does too.
 */
const STATUS_KEEPS_OLD_META = new Set([
  'networking.k8s.io/ServiceCIDR',
  'resource.k8s.io/ResourceClaim',
  'storage.k8s.io/VolumeAttachment',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);
/** Of those, the ones whose status strategy's GetResetFields names metadata: no manager owns what was asked. */
const STATUS_RESETS_META = new Set([
  'storage.k8s.io/VolumeAttachment',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);
const STATUS_WRITABLE_META = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

function statusKeepsOldMeta(t: ResourceType): boolean {
  return !!t.custom || STATUS_KEEPS_OLD_META.has(`${t.group}/${t.kind}`);
}

/**
 * What the field manager sees of a write: kube-apiserver's runs on the request's object before the
 * strategy, so a status write to a kind that keeps the stored metadata still records the labels and
 * annotations it asked for (their values reset, their ownership kept, as ResetFieldsStrategy leaves it).
 */
export function trackedView(
  t: ResourceType,
  object: JsonObject,
  next: JsonObject,
  subresource: string | undefined,
): JsonObject {
  if (subresource !== 'status' || !statusKeepsOldMeta(t) || STATUS_RESETS_META.has(`${t.group}/${t.kind}`))
    return object;
  const meta = { ...metadataOf(object) };
  const nextMeta = metadataOf(next);
  for (const k of STATUS_WRITABLE_META) {
    if (nextMeta[k] !== undefined) meta[k] = nextMeta[k]!;
    else delete meta[k];
  }
  return { ...object, metadata: meta };
}

/**
 * What of the metadata a status write may change: most built-in status strategies copy only the spec
 * from the stored object (`newX.Spec = oldX.Spec`), so labels, annotations, finalizers and owner
 * references come from the request; the kinds above keep all of the old; a Deployment's keeps its labels.
 */
function keepStatusWriteMetadata(t: ResourceType, meta: JsonObject, nextMeta: JsonObject): void {
  if (statusKeepsOldMeta(t)) return;
  for (const k of STATUS_WRITABLE_META) {
    if (k === 'labels' && t.group === 'apps' && t.kind === 'Deployment') continue;
    if (nextMeta[k] !== undefined) meta[k] = nextMeta[k]!;
    else delete meta[k];
  }
}

/** Applies create-time rules (names, server-owned metadata, status reset) in place. */
export function prepareForCreate(
  t: ResourceType,
  namespace: string | undefined,
  obj: JsonObject,
  uid: string = randomUUID(),
  requester?: UserInfo,
): void {
  checkTypeMeta(t, obj);
  const meta = metadataOf(obj);
  let name = stringField(meta, 'name');
  // limitrangeStrategy.PrepareForCreate names a nameless LimitRange with a UUID, before BeforeCreate
  // looks at generateName.
  if (!name && !t.group && t.kind === 'LimitRange') {
    name = randomUUID();
    meta.name = name;
  }
  const generateName = stringField(meta, 'generateName');
  if (!name && generateName) {
    name =
      generateName +
      Array.from({ length: 5 }, () => GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)]).join('');
    meta.name = name;
  }
  if (!name) {
    throw errors.invalid(t, '', [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ]);
  }
  checkNamespace(t, namespace, meta);
  validateName(t, name);
  for (const f of SERVER_OWNED) delete meta[f];
  dropEmptyMetadataFields(meta);
  meta.uid = uid;
  meta.creationTimestamp = nowTimestamp();
  if (t.tracksGeneration || t.custom) meta.generation = 1;
  // nodeStrategy.PrepareForCreate keeps the status: a Node may be created with all of it.
  if (splitsStatus(t) && !(!t.group && t.kind === 'Node')) delete obj.status;
  // The `kubernetes` finalizer is added after the field manager (admission-plugins.ts).
  if (!t.group && t.kind === 'Namespace') obj.status = { phase: 'Active' };
  if (t.group === 'certificates.k8s.io' && t.kind === 'CertificateSigningRequest') stampRequester(obj, requester);
}

/**
 * csrStrategy.PrepareForCreate: what a CertificateSigningRequest says of who asks is the request's user,
 * never what the body claims (anonymous in open mode, which authenticates no one).
 */
function stampRequester(obj: JsonObject, requester: UserInfo = anonymousUser()): void {
  const spec = isObject(obj.spec) ? obj.spec : (obj.spec = {});
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  spec.username = requester.username;
  if (requester.uid) spec.uid = requester.uid;
  if (requester.groups.length) spec.groups = [...requester.groups];
  if (requester.extra && Object.keys(requester.extra).length) spec.extra = structuredClone(requester.extra);
}

export function checkNamespace(t: ResourceType, namespace: string | undefined, meta: JsonObject): void {
  const bodyNs = stringField(meta, 'namespace');
  if (t.namespaced) {
    if (bodyNs && namespace && bodyNs !== namespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace ?? bodyNs ?? 'default';
  } else {
    delete meta.namespace;
  }
}

export interface UpdateOutcome {
  object: JsonObject;
  /** The last finalizer of an object being deleted went: store a tombstone instead of an update. */
  finalize: boolean;
}

/**
 * Update-time rules: server-owned metadata kept from `old`, the status subresource split, and
 * deletion completing when the last finalizer goes (the generation is bumpGeneration's, after defaulting).
 */
export function prepareForUpdate(
  t: ResourceType,
  old: JsonObject,
  next: JsonObject,
  subresource: string | undefined,
): UpdateOutcome {
  checkTypeMeta(t, next);
  const oldMeta = metadataOf(old);
  let object: JsonObject;
  if (subresource === 'status') {
    object = cloneJson(old);
    const nextMeta = metadataOf(next);
    if (next.status !== undefined) object.status = next.status;
    else delete object.status;
    if (!t.group && t.kind === 'Pod') keepPodStatusFields(object, old);
    keepStatusWriteMetadata(t, metadataOf(object), nextMeta);
    if (nextMeta.managedFields !== undefined) metadataOf(object).managedFields = nextMeta.managedFields;
  } else {
    object = next;
    if (splitsStatus(t)) {
      if (old.status !== undefined) object.status = old.status;
      else delete object.status;
    }
    // namespaceStrategy.PrepareForUpdate: a Namespace's finalizers change only through /finalize.
    if (!t.group && t.kind === 'Namespace' && subresource === undefined) keepNamespaceFinalizers(object, old);
    // csrStrategy.PrepareForUpdate: a CertificateSigningRequest's spec is what was created.
    if (t.group === 'certificates.k8s.io' && t.kind === 'CertificateSigningRequest' && subresource === undefined) {
      if (old.spec !== undefined) object.spec = old.spec;
    }
  }
  const meta = metadataOf(object);
  for (const f of SERVER_OWNED) {
    if (oldMeta[f] !== undefined) meta[f] = oldMeta[f]!;
    else delete meta[f];
  }
  meta.name = oldMeta.name!;
  if (t.namespaced) meta.namespace = oldMeta.namespace!;
  dropEmptyMetadataFields(meta);
  const deleting = oldMeta.deletionTimestamp !== undefined;
  if (deleting) {
    const before = new Set(finalizersOf(old));
    const added = finalizersOf(object).filter((f) => !before.has(f));
    if (added.length) {
      throw errors.invalid(t, String(meta.name), [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: no new finalizers can be added if the object is being deleted',
          field: 'metadata.finalizers',
        },
      ]);
    }
  }
  return { object, finalize: deleting && pendingFinalizers(object).length === 0 };
}

/**
 * The generation moves when the spec side changed, compared once defaulting has run (kube-apiserver
 * compares defaulted objects: a PUT leaving defaulted fields out changes nothing). A Deployment's
 * annotations count too (deploymentStrategy.PrepareForUpdate: they are copied to its ReplicaSets).
 */
export function bumpGeneration(t: ResourceType, old: JsonObject, object: JsonObject): void {
  if (!t.tracksGeneration && !t.custom) return;
  const annotationsMove =
    t.group === 'apps' &&
    t.kind === 'Deployment' &&
    !deepEqual(metadataOf(old).annotations ?? {}, metadataOf(object).annotations ?? {});
  // endpointSliceStrategy.PrepareForUpdate: a slice's labels (its Service, its managing controller) count.
  const labelsMove =
    t.group === 'discovery.k8s.io' &&
    t.kind === 'EndpointSlice' &&
    !deepEqual(metadataOf(old).labels ?? {}, metadataOf(object).labels ?? {});
  if (!annotationsMove && !labelsMove && !specSideChanged(t, old, object)) return;
  const oldGeneration = metadataOf(old).generation;
  metadataOf(object).generation = (typeof oldGeneration === 'number' ? oldGeneration : 0) + 1;
}

/**
 * Whether a write to the object itself keeps the stored status (the status subresource's rule).
 * Views have the subresource but, as in Δ-controller's view storage, a write of the whole object
 * (an Updater's) carries its status too.
 */
function splitsStatus(t: ResourceType): boolean {
  return t.statusSubresource && !(t.custom && isViewGroup(t.group));
}

function specSideChanged(t: ResourceType, a: JsonObject, b: JsonObject): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind') continue;
    if (k === 'status' && t.statusSubresource) continue;
    if (!deepEqual(a[k], b[k])) return true;
  }
  return false;
}

/** Equal but for the revision and field-manager timestamps: the write is a no-op and keeps its RV. */
export function isNoopUpdate(old: JsonObject, next: JsonObject): boolean {
  const strip = (o: JsonObject): JsonObject => {
    const c = { ...o, metadata: { ...metadataOf(o) } };
    delete (c.metadata as JsonObject).resourceVersion;
    delete (c.metadata as JsonObject).managedFields;
    return c;
  };
  return (
    deepEqual(strip(old), strip(next)) &&
    deepEqual(withoutTimes(metadataOf(old).managedFields), withoutTimes(metadataOf(next).managedFields))
  );
}

function withoutTimes(v: JsonObject[keyof JsonObject] | undefined): JsonObject[keyof JsonObject] | undefined {
  if (!Array.isArray(v)) return v;
  return v.map((e) => (e && typeof e === 'object' && !Array.isArray(e) ? { ...e, time: null } : e));
}

/**
 * podStatusStrategy.PrepareForUpdate: the QoS class, set at creation, is backfilled when a status write
 * leaves it out, and observedGeneration (the status's and each condition's, matched by type in order)
 * is kept when the write leaves it 0 (preserveOldObservedGeneration).
 */
function keepPodStatusFields(pod: JsonObject, old: JsonObject): void {
  const status = pod.status;
  const before = old.status;
  if (!isObject(status) || !isObject(before)) return;
  if (!status.qosClass && before.qosClass !== undefined) status.qosClass = before.qosClass;
  if (!status.observedGeneration && typeof before.observedGeneration === 'number' && before.observedGeneration !== 0)
    status.observedGeneration = before.observedGeneration;
  const generations = new Map<string, number[]>();
  for (const c of Array.isArray(before.conditions) ? before.conditions : []) {
    if (!isObject(c)) continue;
    const type = String(c.type ?? '');
    generations.set(type, [
      ...(generations.get(type) ?? []),
      typeof c.observedGeneration === 'number' ? c.observedGeneration : 0,
    ]);
  }
  for (const c of Array.isArray(status.conditions) ? status.conditions : []) {
    if (!isObject(c)) continue;
    const left = generations.get(String(c.type ?? '')) ?? [];
    const was = left.shift() ?? 0;
    if (!c.observedGeneration && was !== 0) c.observedGeneration = was;
  }
}

/**
 * Top-level fields besides status a kind's strategy resets on every write (its GetResetFields), which
 * no manager owns: csrStrategy's (and its status and approval strategies') spec, the server's once
 * created, the requester stamped into it. As options for the field manager (trackUpdate, serverSideApply).
 */
export function resetRootsOf(t: Pick<ResourceType, 'group' | 'kind'>): { resetRoots?: readonly string[] } {
  return t.group === 'certificates.k8s.io' && t.kind === 'CertificateSigningRequest' ? { resetRoots: ['spec'] } : {};
}

function keepNamespaceFinalizers(object: JsonObject, old: JsonObject): void {
  const finalizers = isObject(old.spec) ? old.spec.finalizers : undefined;
  const spec = isObject(object.spec) ? object.spec : (object.spec = {});
  if (finalizers !== undefined) spec.finalizers = finalizers;
  else delete spec.finalizers;
}
