// Part of kube-apiserver's core volume validation (kubernetes/kubernetes pkg/apis/core/validation/validation.go):
// ValidatePersistentVolumeSpec (access modes, capacity only `storage`, exactly one volume source, reclaim policy,
// volume mode, volumeAttributesClassName, node affinity's selector) and ValidatePersistentVolumeUpdate's fixed
// source and volume mode (claims are persistent-volume-claims.ts), and a hostPath source's own fields. The other
// sources' own fields and a node affinity's update rule are stored unchecked.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { IMMUTABLE, str, subdomainErrors } from './checks.js';
import { nodeSelectorCauses } from './node-selector.js';
import { objectAt } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const RECLAIM = ['Delete', 'Recycle', 'Retain'];
/** The PersistentVolumeSource members, JSON name and the path child upstream's errors name. */
const SOURCES: Array<[string, string]> = (
  'hostPath gcePersistentDisk awsElasticBlockStore glusterfs flocker nfs rbd quobyte cephfs:cephFS iscsi cinder fc ' +
  'flexVolume azureFile vsphereVolume photonPersistentDisk portworxVolume azureDisk scaleIO local storageos csi'
)
  .split(' ')
  .map((s) => {
    const [json = s, child = json] = s.split(':');
    return [json, child];
  });

const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

function accessModeCauses(modes: JsonValue | undefined, path: string, detail: string): FieldCause[] {
  const list = Array.isArray(modes) ? modes : [];
  if (!list.length) return [required(path, detail)];
  const causes: FieldCause[] = [];
  for (const m of list)
    if (typeof m !== 'string' || !ACCESS_MODES.includes(m)) causes.push(notSupported(path, m, ACCESS_MODES));
  const once = list.includes('ReadWriteOncePod');
  if (once && list.some((m) => m !== 'ReadWriteOncePod' && typeof m === 'string' && ACCESS_MODES.includes(m)))
    causes.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return causes;
}

function volumeModeCauses(spec: JsonObject, path: string): FieldCause[] {
  const m = spec.volumeMode;
  const bad = set(m) && (typeof m !== 'string' || !VOLUME_MODES.includes(m));
  return bad ? [notSupported(path, m, VOLUME_MODES)] : [];
}

const sourceOf = (spec: JsonObject): JsonObject =>
  Object.fromEntries(SOURCES.filter(([k]) => set(spec[k])).map(([k]) => [k, spec[k] ?? null]));

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

/** validateHostPathVolumeSource: a path without `..` steps, a known type. */
export function hostPathCauses(hostPath: JsonObject, path: string): FieldCause[] {
  const p = str(hostPath.path);
  if (!p) return [required(`${path}.path`)];
  const causes: FieldCause[] = [];
  if (p.split('/').includes('..')) causes.push(invalid(`${path}.path`, p, "must not contain '..'"));
  const type = hostPath.type;
  if (set(type) && (typeof type !== 'string' || !HOST_PATH_TYPES.includes(type)))
    causes.push(notSupported(`${path}.type`, type, HOST_PATH_TYPES));
  return causes;
}

/** Go's path.Clean, as far as telling whether a path is the root. */
const cleanPath = (p: string): string =>
  p.startsWith('/') && p.split('/').every((s) => s === '' || s === '.') ? '/' : p;

export function persistentVolumeCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = accessModeCauses(spec.accessModes, 'spec.accessModes', '');
  const capacity = isObject(spec.capacity) ? spec.capacity : {};
  const keys = Object.keys(capacity);
  if (!keys.length) causes.push(required('spec.capacity'));
  if (!keys.includes('storage') || keys.length > 1) causes.push(notSupported('spec.capacity', capacity, ['storage']));
  const rp = str(spec.persistentVolumeReclaimPolicy);
  if (rp && !RECLAIM.includes(rp)) causes.push(notSupported('spec.persistentVolumeReclaimPolicy', rp, RECLAIM));
  if (set(spec.nodeAffinity)) {
    // validateVolumeNodeAffinity: `required` is required, and a node selector.
    const required_ = objectAt(spec, 'nodeAffinity').required;
    if (set(required_)) causes.push(...nodeSelectorCauses(required_, 'spec.nodeAffinity.required'));
    else causes.push(required('spec.nodeAffinity.required', 'must specify required node constraints'));
  }
  let sources = 0;
  for (const [k, child] of SOURCES) {
    if (!set(spec[k])) continue;
    if (sources > 0) causes.push(forbidden(`spec.${child}`, 'may not specify more than 1 volume type'));
    sources++;
  }
  if (!sources) causes.push(required('spec', 'must specify a volume type'));
  // hostPath is the first source upstream looks at, so it is validated whenever it is set.
  if (set(spec.hostPath)) causes.push(...hostPathCauses(objectAt(spec, 'hostPath'), 'spec.hostPath'));
  if (set(spec.hostPath) && cleanPath(str(objectAt(spec, 'hostPath').path)) === '/' && rp === 'Recycle')
    causes.push(forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  causes.push(...volumeModeCauses(spec, 'spec.volumeMode'));
  causes.push(...attributesClassCauses(spec));
  if (!old) return causes;
  const before = objectAt(old, 'spec');
  if (!sourcesEqual(sourceOf(spec), sourceOf(before))) {
    causes.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  }
  // Upstream names this one `volumeMode`, without `spec.`.
  if (!semanticEqual(spec.volumeMode, before.volumeMode)) {
    causes.push(invalid('volumeMode', spec.volumeMode ?? null, IMMUTABLE));
  }
  if (set(before.volumeAttributesClassName) && !set(spec.volumeAttributesClassName)) {
    causes.push(forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  }
  return causes;
}

/** The source members are pointers: one set to `{}` is not one left out (Semantic.DeepEqual on pointers). */
function sourcesEqual(a: JsonObject, b: JsonObject): boolean {
  const keys = (o: JsonObject): string => Object.keys(o).sort().join(',');
  return keys(a) === keys(b) && semanticEqual(a, b);
}

/** VolumeAttributesClass (GA in 1.34): a class name, and only with a CSI source. */
function attributesClassCauses(spec: JsonObject): FieldCause[] {
  if (!set(spec.volumeAttributesClassName)) return [];
  const name = str(spec.volumeAttributesClassName);
  const causes = name
    ? subdomainErrors(name).map((m) => invalid('spec.volumeAttributesClassName', name, m))
    : [required('spec.volumeAttributesClassName', 'an empty string is disallowed')];
  if (!set(spec.csi)) causes.push(required('spec.csi', 'has to be specified when using volumeAttributesClassName'));
  return causes;
}
