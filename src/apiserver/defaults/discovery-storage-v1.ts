import type { JsonObject } from '../registry/types.js';
import { applyRows, objectsIn, type DefaultRow } from './fields.js';

/** pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort: both fields are pointers. */
const ENDPOINT_PORT: DefaultRow[] = [
  ['name', '', 'nil'],
  ['protocol', 'TCP', 'nil'],
];

export function defaultEndpointSlice(obj: JsonObject): void {
  for (const port of objectsIn(obj, 'ports')) applyRows(port, ENDPOINT_PORT);
}

/** pkg/apis/storage/v1/defaults.go SetDefaults_StorageClass. */
const STORAGE_CLASS: DefaultRow[] = [
  ['reclaimPolicy', 'Delete', 'nil'],
  ['volumeBindingMode', 'Immediate', 'nil'],
];

export function defaultStorageClass(obj: JsonObject): void {
  applyRows(obj, STORAGE_CLASS);
}

/** pkg/apis/storage/v1/defaults.go SetDefaults_CSIDriver (seLinuxMount: SELinuxMountReadWriteOncePod is on). */
const CSI_DRIVER: DefaultRow[] = [
  ['attachRequired', true, 'nil'],
  ['podInfoOnMount', false, 'nil'],
  ['storageCapacity', false, 'nil'],
  ['fsGroupPolicy', 'ReadWriteOnceWithFSType', 'nil'],
  ['requiresRepublish', false, 'nil'],
  ['seLinuxMount', false, 'nil'],
];

export function defaultCSIDriver(obj: JsonObject): void {
  const spec = (obj.spec ??= {}) as JsonObject;
  applyRows(spec, CSI_DRIVER);
  const modes = spec.volumeLifecycleModes;
  if (!Array.isArray(modes) || modes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
}

/**
 * csiDriverStrategy's PrepareForCreate and PrepareForUpdate: nodeAllocatableUpdatePeriodSeconds
 * belongs to MutableCSINodeAllocatableCount, off by default in v1.34, and is dropped unless the
 * stored driver has it.
 */
export function dropDisabledCSIDriverFields(obj: JsonObject, old: JsonObject | undefined): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return;
  const was = old?.spec;
  const kept = was && typeof was === 'object' && !Array.isArray(was) && was.nodeAllocatableUpdatePeriodSeconds != null;
  if (!kept) delete spec.nodeAllocatableUpdatePeriodSeconds;
}
