import { errors } from '../http/status.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { applyRows, existingObject, isObject, objectAt, objectsIn, type DefaultRow } from './fields.js';
import { defaultTemplateOf, PVC_SPEC } from './pod-spec.js';

/** core/v1 defaulting (pkg/apis/core/v1/defaults.go) but for Pods and Services, which have files of their own. */

/** The label every namespace carries (k8s.io/api/core/v1 LabelMetadataName). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * SetDefaults_Namespace (pkg/apis/core/v1/defaults.go) and namespaceStrategy.Canonicalize
 * (pkg/registry/core/namespace/strategy.go): the label is set to the name on every create and
 * update, whatever the client sent for it. Run after generateName is resolved, as Canonicalize is.
 */
export function defaultNamespace(obj: JsonObject): void {
  const meta = objectAt(obj, 'metadata');
  if (typeof meta.name !== 'string' || !meta.name) return;
  objectAt(meta, 'labels')[NAMESPACE_NAME_LABEL] = meta.name;
}

/**
 * SetDefaults_Secret (type Opaque) and Convert_v1_Secret_To_core_Secret
 * (pkg/apis/core/v1/conversion.go): `stringData` overwrites `data` key by key and is dropped, since
 * the internal type has no such field; what is stored and answered only has `data` (base64).
 */
export function defaultSecret(obj: JsonObject): void {
  if (typeof obj.type !== 'string' || obj.type === '') obj.type = 'Opaque';
  const stringData = obj.stringData;
  delete obj.stringData;
  if (!isObject(stringData) || Object.keys(stringData).length === 0) return;
  const data = objectAt(obj, 'data');
  for (const [key, value] of Object.entries(stringData)) {
    // map[string]string: anything else fails to decode, before any conversion.
    if (typeof value !== 'string') {
      throw errors.badRequest(
        `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal ${jsonType(value)} into Go struct field Secret.stringData of type string`,
      );
    }
    data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
}

/** The JSON type name Go's decoder reports. */
function jsonType(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** SetDefaults_PersistentVolumeClaim(Spec): volumeMode Filesystem, and phase Pending until bound. */
export function defaultPersistentVolumeClaim(obj: JsonObject): void {
  applyRows(objectAt(obj, 'spec'), PVC_SPEC);
  normalizeDataSources(objectAt(obj, 'spec'));
  const status = objectAt(obj, 'status');
  if (!status.phase) status.phase = 'Pending';
}

/** SetDefaults_PersistentVolume. */
const PV_SPEC: readonly DefaultRow[] = [
  ['persistentVolumeReclaimPolicy', 'Retain', 'zero'],
  ['volumeMode', 'Filesystem', 'nil'],
];

export function defaultPersistentVolume(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, PV_SPEC);
  // SetDefaults_HostPathVolumeSource: an unset type is HostPathUnset, "".
  const hostPath = existingObject(spec, 'hostPath');
  if (hostPath && hostPath.type == null) hostPath.type = '';
  const status = objectAt(obj, 'status');
  if (!status.phase) status.phase = 'Pending';
}

/** SetDefaults_Endpoints: every port's protocol TCP. */
export function defaultEndpoints(obj: JsonObject): void {
  for (const subset of objectsIn(obj, 'subsets'))
    for (const port of objectsIn(subset, 'ports')) applyRows(port, [['protocol', 'TCP', 'zero']]);
}

/**
 * SetDefaults_ReplicationController: selector and labels from the template's labels when unset;
 * replicas 1 (the declarative `+default=1`); and the template's PodSpec defaults.
 */
export function defaultReplicationController(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  const template = existingObject(spec, 'template');
  const labels = template && existingObject(existingObject(template, 'metadata') ?? {}, 'labels');
  if (labels) {
    if (!isObject(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    const meta = objectAt(obj, 'metadata');
    if (!isObject(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
  }
  applyRows(spec, [['replicas', 1, 'nil']]);
  defaultTemplateOf(spec);
}

/** A PodTemplate: its template's PodSpec defaults. */
export function defaultPodTemplate(obj: JsonObject): void {
  defaultTemplateOf(obj);
}

/**
 * persistentvolumeclaimStrategy's PrepareForCreate and PrepareForUpdate (pvcutil.NormalizeDataSources, with
 * AnyVolumeDataSource GA): a claim that names one of dataSource and dataSourceRef gets the other as its copy,
 * unless the reference is to another namespace.
 */
function normalizeDataSources(spec: JsonObject): void {
  const source = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const ref = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  const copy = (from: JsonObject): JsonObject => {
    const out: JsonObject = { kind: from.kind ?? '', name: from.name ?? '' };
    if (from.apiGroup !== undefined && from.apiGroup !== null) out.apiGroup = from.apiGroup ?? null;
    return out;
  };
  // EnforceDataSourceBackwardsCompatibility: without a dataSourceRef, a dataSource that is neither a claim nor a
  // VolumeSnapshot is dropped, as it always was.
  const group = source?.apiGroup ?? '';
  const kept =
    (group === '' && source?.kind === 'PersistentVolumeClaim') ||
    (group === 'snapshot.storage.k8s.io' && source?.kind === 'VolumeSnapshot');
  if (source && !ref && !kept) {
    delete spec.dataSource;
    return;
  }
  if (source && !ref) spec.dataSourceRef = copy(source);
  else if (ref && !source && (typeof ref.namespace !== 'string' || ref.namespace === '')) spec.dataSource = copy(ref);
}
