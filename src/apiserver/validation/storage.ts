// Part of kube-apiserver's storage validation (kubernetes/kubernetes pkg/apis/storage/validation/validation.go):
// ValidateStorageClass and ValidateStorageClassUpdate (validateProvisioner, validateParameters,
// validateReclaimPolicy, validateVolumeBindingMode), ValidateVolumeAttachmentV1 (validateAttacher,
// validateVolumeAttachmentSource, validateNodeName) and ValidateVolumeAttachmentUpdate's fixed spec,
// ValidateCSIStorageCapacity and its update, ValidateVolumeAttributesClass and its update.
import { isObject } from '../objects/meta.js';
import { goSemanticEqual } from '../protobuf/index.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required, tooLong } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { immutable, str, subdomainErrors } from './checks.js';
import { labelSelectorCauses } from './label-selector.js';
import { objectAt } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

function provisionerCauses(v: string, path: string): FieldCause[] {
  if (v === '') return [required(path)];
  return qualifiedNameErrors(v.toLowerCase()).map((m) => invalid(path, v.toLowerCase(), m));
}

function parametersCauses(params: JsonObject | undefined, allowEmpty: boolean, path: string): FieldCause[] {
  const keys = Object.keys(params ?? {});
  const causes = keys.filter((k) => k === '').map(() => invalid(path, '', 'field can not be empty.'));
  if (!allowEmpty && !keys.length) causes.push(required(path, 'must contain at least one key/value pair'));
  return causes;
}

const RECLAIM = ['Delete', 'Recycle', 'Retain'];
const BINDING = ['Immediate', 'WaitForFirstConsumer'];
const params = (o: JsonObject): JsonObject | undefined => (isObject(o.parameters) ? o.parameters : undefined);

export function storageClassCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const causes = [
    ...provisionerCauses(str(obj.provisioner), 'provisioner'),
    ...parametersCauses(params(obj), true, 'parameters'),
  ];
  const rp = str(obj.reclaimPolicy);
  if (rp && !RECLAIM.includes(rp)) causes.push(notSupported('reclaimPolicy', rp, RECLAIM));
  const mode = obj.volumeBindingMode;
  if (mode === undefined || mode === null) causes.push(required('volumeBindingMode'));
  else if (typeof mode !== 'string' || !BINDING.includes(mode))
    causes.push(notSupported('volumeBindingMode', mode, BINDING));
  if (!old) return causes;
  if (!semanticEqual(params(obj) ?? {}, params(old) ?? {}))
    causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (obj.provisioner !== old.provisioner)
    causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (obj.reclaimPolicy !== old.reclaimPolicy)
    causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  return [...causes, ...immutable(obj.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode')];
}

/** ValidateCSIDriverName: what an attacher or a CSI driver is named. */
function csiDriverNameCauses(v: string, path: string): FieldCause[] {
  const causes: FieldCause[] = v === '' ? [required(path)] : [];
  if (v.length > 63) causes.push(tooLong(path, 63));
  return [...causes, ...subdomainErrors(v.toLowerCase()).map((m) => invalid(path, v, m))];
}

export function volumeAttachmentCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = str(spec.attacher) === '' ? [required('spec.attacher')] : [];
  causes.push(...csiDriverNameCauses(str(spec.attacher), 'spec.attacher'));
  const source = objectAt(spec, 'source');
  const inline = source.inlineVolumeSpec !== undefined && source.inlineVolumeSpec !== null;
  const pvName = source.persistentVolumeName;
  const hasPv = pvName !== undefined && pvName !== null;
  const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!inline && !hasPv) causes.push(required('spec.source', exactlyOne));
  else if (inline && hasPv) causes.push(forbidden('spec.source', exactlyOne));
  else if (hasPv && str(pvName) === '')
    causes.push(required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  const node = str(spec.nodeName);
  for (const m of subdomainErrors(node)) causes.push(invalid('spec.nodeName', node, m));
  if (!old) return causes;
  // The source's fields are pointers: one that appears, even empty, is a change of the spec.
  if (!goSemanticEqual('k8s.io.api.storage.v1.VolumeAttachmentSpec', obj.spec, old.spec, semanticEqual))
    causes.push(invalid('spec', obj.spec ?? null, 'field is immutable'));
  return causes;
}

/** Semantic.DeepEqual of a *LabelSelector: a nil pointer is not an empty selector. */
function pointerImmutable(now: JsonValue | undefined, before: JsonValue | undefined, path: string): FieldCause[] {
  const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
  if (set(now) !== set(before)) return [invalid(path, now ?? null, 'field is immutable')];
  return immutable(now, before, path);
}

export function csiStorageCapacityCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const sc = str(obj.storageClassName);
  const causes = [
    ...labelSelectorCauses(obj.nodeTopology, 'nodeTopology'),
    ...subdomainErrors(sc).map((m) => invalid('storageClassName', sc, m)),
  ];
  if (!old) return causes;
  return [
    ...causes,
    ...pointerImmutable(obj.nodeTopology, old.nodeTopology, 'nodeTopology'),
    ...immutable(obj.storageClassName, old.storageClassName, 'storageClassName'),
  ];
}

export function volumeAttributesClassCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const causes = [
    ...provisionerCauses(str(obj.driverName), 'driverName'),
    ...parametersCauses(params(obj), false, 'parameters'),
  ];
  if (!old) return causes;
  if (obj.driverName !== old.driverName) causes.push(forbidden('driverName', 'updates to driverName are forbidden.'));
  if (!semanticEqual(params(obj) ?? {}, params(old) ?? {}))
    causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  return causes;
}
