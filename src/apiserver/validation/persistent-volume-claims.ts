// kube-apiserver's PersistentVolumeClaim validation (kubernetes/kubernetes pkg/apis/core/validation/validation.go):
// ValidatePersistentVolumeClaim (ValidatePersistentVolumeClaimSpec with validateDataSource and
// validateDataSourceRef) and ValidatePersistentVolumeClaimUpdate (volumeName set once, the beta storage-class
// annotation fixed, storageClassName set once from nil, a bound claim's size, volumeMode and
// volumeAttributesClassName), with the options v1.34's gates give: VolumeAttributesClass and
// RecoverVolumeExpansionFailure on. The Forbidden `spec` text leaves out upstream's cmp.Diff of the specs.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { quantityNanos } from '../defaults/quantity.js';
import { IMMUTABLE, str, subdomainErrors } from './checks.js';
import { labelSelectorCauses } from './label-selector.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { objectAt } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';
const STORAGE = 'spec.resources[storage]';

const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

function accessModeCauses(modes: JsonValue[]): FieldCause[] {
  const causes: FieldCause[] = [];
  let once = false;
  let other = false;
  for (const m of modes) {
    const known = typeof m === 'string' && ACCESS_MODES.includes(m);
    if (!known) causes.push(notSupported('spec.accessModes', m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') once = true;
    else if (known) other = true;
  }
  if (once && other) causes.push(forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  return causes;
}

/** ValidatePositiveQuantityValue, then ValidateResourceQuantityValue (storage is not an integer resource). */
function storageCauses(spec: JsonObject): FieldCause[] {
  const requests = objectAt(objectAt(spec, 'resources'), 'requests');
  const v = requests.storage;
  if (!set(v)) return [required(STORAGE)];
  const nanos = quantityNanos(String(v));
  if (nanos !== undefined && nanos <= 0n)
    return [invalid(STORAGE, nanos === 0n ? '0' : String(v), 'must be greater than zero')];
  return [];
}

/** validateDataSource and validateDataSourceRef: a TypedLocalObjectReference, the second with a namespace. */
function dataSourceCauses(ref: JsonObject, path: string, withNamespace: boolean): FieldCause[] {
  const causes: FieldCause[] = [];
  if (str(ref.name) === '') causes.push(required(`${path}.name`));
  const kind = str(ref.kind);
  if (kind === '') causes.push(required(`${path}.kind`));
  const group = str(ref.apiGroup);
  if (group === '' && kind !== 'PersistentVolumeClaim')
    causes.push(invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group !== '') for (const m of subdomainErrors(group)) causes.push(invalid(`${path}.apiGroup`, group, m));
  const ns = str(ref.namespace);
  if (withNamespace && ns !== '') {
    // ValidateNamespaceName: a DNS-1123 label.
    for (const m of namespaceNameErrors(ns)) causes.push(invalid(`${path}.namespace`, ns, m));
  }
  return causes;
}

function namespaceNameErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " +
        "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

/** isDataSourceEqualDataSourceRef: apiGroup (as pointers), kind and name. */
function sameSource(a: JsonObject, b: JsonObject): boolean {
  return (a.apiGroup ?? null) === (b.apiGroup ?? null) && str(a.kind) === str(b.kind) && str(a.name) === str(b.name);
}

/** ValidatePersistentVolumeClaimSpec, in upstream's order. */
export function claimSpecCauses(spec: JsonObject): FieldCause[] {
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  const causes: FieldCause[] = modes.length ? [] : [required('spec.accessModes', 'at least 1 access mode is required')];
  if (isObject(spec.selector)) causes.push(...labelSelectorCauses(spec.selector, 'spec.selector'));
  causes.push(...accessModeCauses(modes), ...storageCauses(spec));
  const sc = str(spec.storageClassName);
  if (sc) causes.push(...subdomainErrors(sc).map((m) => invalid('spec.storageClassName', sc, m)));
  const vm = spec.volumeMode;
  if (set(vm) && (typeof vm !== 'string' || !VOLUME_MODES.includes(vm)))
    causes.push(notSupported('spec.volumeMode', vm, VOLUME_MODES));
  const source = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const ref = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  if (source) causes.push(...dataSourceCauses(source, 'spec.dataSource', false));
  if (ref) causes.push(...dataSourceCauses(ref, 'spec.dataSourceRef', true));
  if (ref && str(ref.namespace) !== '') {
    if (source)
      causes.push(invalid('spec', 'spec.dataSource', 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (source && ref && !sameSource(source, ref)) {
    causes.push(invalid('spec', 'spec.dataSource', 'must match dataSourceRef'));
  }
  const vac = str(spec.volumeAttributesClassName);
  if (vac) causes.push(...subdomainErrors(vac).map((m) => invalid('spec.volumeAttributesClassName', vac, m)));
  return causes;
}

const annotationsOf = (o: JsonObject): JsonObject => objectAt(objectAt(o, 'metadata'), 'annotations');

/** persistentvolumeclaimStrategy.Validate, or ValidateUpdate: ValidatePersistentVolumeClaim, then the update's. */
export function persistentVolumeClaimCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = claimSpecCauses(spec);
  if (!old) return causes;
  // The strategy's ValidateUpdate runs ValidatePersistentVolumeClaim, then the update's own checks, which run it again.
  causes.push(...claimSpecCauses(spec));
  const before = objectAt(old, 'spec');
  const newClone: JsonObject = { ...spec };
  const oldClone: JsonObject = { ...before };
  // The PV controller sets volumeName once.
  if (!str(before.volumeName)) oldClone.volumeName = spec.volumeName ?? null;
  const oldAnn = annotationsOf(old);
  const newAnn = annotationsOf(obj);
  const oldBeta = oldAnn[BETA_CLASS];
  if (
    typeof oldBeta === 'string' &&
    !set(before.storageClassName) &&
    set(spec.storageClassName) &&
    spec.storageClassName === oldBeta &&
    (newAnn[BETA_CLASS] === undefined || newAnn[BETA_CLASS] === oldBeta)
  ) {
    // validateStorageClassUpgradeFromAnnotation: the class moves from the annotation to the field.
    delete newClone.storageClassName;
  } else {
    const nowBeta = str(newAnn[BETA_CLASS]);
    if (nowBeta !== str(oldBeta)) causes.push(invalid(`metadata.annotations.${BETA_CLASS}`, nowBeta, IMMUTABLE));
    // validateStorageClassUpgradeFromNil: a claim without a class may be given one (RetroactiveDefaultStorageClass).
    if (
      set(spec.storageClassName) &&
      !set(before.storageClassName) &&
      (oldBeta === undefined || spec.storageClassName === oldBeta)
    )
      newClone.storageClassName = before.storageClassName ?? null;
  }
  // The status is the stored one (PrepareForUpdate): a bound claim may change its requested size.
  const bound = objectAt(old, 'status').phase === 'Bound';
  const resources = objectAt(spec, 'resources');
  if (bound && isObject(resources.requests)) {
    const oldStorage = objectAt(objectAt(before, 'resources'), 'requests').storage;
    const requests: JsonObject = { ...resources.requests };
    if (oldStorage === undefined) delete requests.storage;
    else requests.storage = oldStorage;
    newClone.resources = { ...resources, requests };
  }
  if (bound) newClone.volumeAttributesClassName = oldClone.volumeAttributesClassName ?? null;
  // The selector and the data sources are pointers: an empty one is not one left out.
  const pointerMoved = ['selector', 'dataSource', 'dataSourceRef'].some((f) => set(newClone[f]) !== set(oldClone[f]));
  if (pointerMoved || !semanticEqual(newClone, oldClone)) {
    const detail =
      'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';
    causes.push(forbidden('spec', detail));
  }
  const oldSize = quantityNanos(String(objectAt(objectAt(before, 'resources'), 'requests').storage ?? '0')) ?? 0n;
  const newSize = quantityNanos(String(objectAt(resources, 'requests').storage ?? '0')) ?? 0n;
  const statusSize = quantityNanos(String(objectAt(objectAt(old, 'status'), 'capacity').storage ?? '0')) ?? 0n;
  // RecoverVolumeExpansionFailure (on): a claim may shrink back down to what its status has.
  if (newSize < oldSize && newSize <= statusSize)
    causes.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  if (!semanticEqual(spec.volumeMode, before.volumeMode))
    causes.push(invalid('volumeMode', spec.volumeMode ?? null, IMMUTABLE));
  if (
    set(before.volumeAttributesClassName) &&
    !semanticEqual(spec.volumeAttributesClassName, before.volumeAttributesClassName)
  ) {
    if (!set(spec.volumeAttributesClassName))
      causes.push(forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
    else if (str(spec.volumeAttributesClassName) === '')
      causes.push(
        forbidden('spec.volumeAttributesClassName', 'update from non-nil value to an empty string is forbidden'),
      );
  }
  return causes;
}

const RESIZE_STATUSES = [
  'ControllerResizeFailed',
  'ControllerResizeInProgress',
  'NodeResizeFailed',
  'NodeResizeInProgress',
  'NodeResizePending',
];

/** validatePersistentVolumeClaimResourceKey: a qualified name, and `storage` if it is a native resource name. */
function resourceKeyCauses(key: string, path: string): FieldCause[] {
  const errs = qualifiedNameErrors(key).map((m) => invalid(path, key, m));
  if (errs.length) return errs;
  const native = !key.includes('/') || key.startsWith('kubernetes.io/');
  return native && key !== 'storage' ? [notSupported(path, key, ['storage'])] : [];
}

/** validateBasicResource: the quantity's Value() (rounded up to an integer) is not negative. */
function basicResourceCauses(qty: JsonValue | undefined, path: string): FieldCause[] {
  const nanos = quantityNanos(String(qty ?? '0'));
  if (nanos === undefined || nanos >= 0n) return [];
  const value = -(-nanos / 1_000_000_000n);
  return [invalid(path, Number(value), 'must be a valid resource quantity')];
}

/** ValidatePersistentVolumeClaimStatusUpdate (RecoverVolumeExpansionFailure on). */
export function persistentVolumeClaimStatusCauses(obj: JsonObject): FieldCause[] {
  const causes: FieldCause[] = [];
  const spec = objectAt(obj, 'spec');
  if (!Array.isArray(spec.accessModes) || !spec.accessModes.length) causes.push(required('Spec.accessModes'));
  const status = objectAt(obj, 'status');
  for (const [r, q] of Object.entries(objectAt(status, 'capacity')))
    causes.push(...basicResourceCauses(q, `status.capacity[${r}]`));
  if (isObject(status.allocatedResourceStatuses)) {
    for (const [k, v] of Object.entries(status.allocatedResourceStatuses)) {
      causes.push(...resourceKeyCauses(k, 'status.allocatedResourceStatuses'));
      if (typeof v !== 'string' || !RESIZE_STATUSES.includes(v))
        causes.push(notSupported('status.allocatedResourceStatuses', k, RESIZE_STATUSES));
    }
  }
  for (const [r, q] of Object.entries(objectAt(status, 'allocatedResources'))) {
    const keyErrs = resourceKeyCauses(r, 'status.allocatedResources');
    if (keyErrs.length) {
      causes.push(...keyErrs);
      continue;
    }
    const basic = basicResourceCauses(q, `status.allocatedResources[${r}]`);
    if (basic.length) causes.push(...basic);
    else if ((quantityNanos(String(q ?? '0')) ?? 0n) < 0n)
      causes.push(invalid(`status.allocatedResources[${r}]`, String(q), 'must be greater than or equal to 0'));
  }
  return causes;
}
