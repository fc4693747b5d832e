// kube-apiserver's CSIDriver and CSINode validation (kubernetes/kubernetes
// pkg/apis/storage/validation/validation.go: validateCSIDriverSpec and ValidateCSIDriverUpdate,
// validateCSINodeDriver and ValidateCSINodeUpdate), with upstream's paths, texts and order. The
// attach/detach and node controllers read these kinds; a CSINode update may not change a driver
// (MutableCSINodeAllocatableCount is off by default in v1.34), and a node ID may be 256 long (the
// registry's AllowLongNodeID).
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { immutable, str } from './checks.js';
import { objectAt } from './pod-spec.js';
import { csiDriverNameCauses } from './resource-slices.js';
import { semanticEqual } from './semantic-equal.js';

const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 600;
const NODE_ID_MAX = 256;

function csiDriverSpecCauses(spec: JsonObject): FieldCause[] {
  const causes: FieldCause[] = [];
  // The path says "attachedRequired": upstream's own spelling.
  if (!isSet(spec.attachRequired)) causes.push(required('spec.attachedRequired'));
  if (!isSet(spec.podInfoOnMount)) causes.push(required('spec.podInfoOnMount'));
  if (!isSet(spec.storageCapacity)) causes.push(required('spec.storageCapacity'));
  if (isSet(spec.fsGroupPolicy) && !FS_GROUP_POLICIES.includes(str(spec.fsGroupPolicy)))
    causes.push(notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, FS_GROUP_POLICIES));
  const audiences = new Set<string>();
  const requests = Array.isArray(spec.tokenRequests) ? spec.tokenRequests : [];
  requests.forEach((r, i) => {
    if (!isObject(r)) return;
    const at = `spec.tokenRequests[${i}]`;
    const audience = str(r.audience);
    if (audiences.has(audience)) {
      causes.push(duplicate(`${at}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = r.expirationSeconds;
    if (typeof seconds !== 'number') return;
    if (seconds < MIN_TOKEN_SECONDS)
      causes.push(invalid(`${at}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > 2 ** 32)
      causes.push(invalid(`${at}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  const modes = Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes : [];
  for (const mode of modes)
    if (typeof mode !== 'string' || !LIFECYCLE_MODES.includes(mode))
      causes.push(notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  // SELinuxMountReadWriteOncePod is beta and on: seLinuxMount is required (its default is false).
  if (!isSet(spec.seLinuxMount)) causes.push(required('spec.seLinuxMount'));
  const period = spec.nodeAllocatableUpdatePeriodSeconds;
  if (typeof period === 'number' && period < 10)
    causes.push(
      invalid('spec.nodeAllocatableUpdatePeriodSeconds', period, 'must be greater than or equal to 10 seconds'),
    );
  return causes;
}

/** ValidateCSIDriver and ValidateCSIDriverUpdate. */
export function csiDriverCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = csiDriverSpecCauses(spec);
  if (!old) return causes;
  const was = objectAt(old, 'spec');
  return [
    ...causes,
    ...immutable(spec.attachRequired, was.attachRequired, 'spec.attachedRequired'),
    ...immutable(spec.volumeLifecycleModes, was.volumeLifecycleModes, 'spec.volumeLifecycleModes'),
  ];
}

function csiNodeDriverCauses(driver: JsonObject, names: Set<string>, at: string): FieldCause[] {
  const name = str(driver.name);
  const causes = csiDriverNameCauses(name, `${at}.name`);
  const nodeID = str(driver.nodeID);
  if (nodeID === '') causes.push(required(`${at}.nodeID`));
  if (nodeID.length > NODE_ID_MAX)
    causes.push(invalid(`${at}.nodeID`, nodeID, `must be ${NODE_ID_MAX} characters or less`));
  const count = isObject(driver.allocatable) ? driver.allocatable.count : undefined;
  if (typeof count === 'number' && count < 0)
    causes.push(invalid(`${at}.allocatable.count`, count, 'must be greater than or equal to 0'));
  if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of Array.isArray(driver.topologyKeys) ? driver.topologyKeys : []) {
    const k = typeof key === 'string' ? key : '';
    if (k === '') causes.push(required(at));
    if (keys.has(k)) causes.push(duplicate(at, k));
    keys.add(k);
    for (const m of qualifiedNameErrors(k)) causes.push(invalid(at, k, m));
  }
  return causes;
}

const driversOf = (obj: JsonObject): JsonObject[] => {
  const list = objectAt(obj, 'spec').drivers;
  return Array.isArray(list) ? list.filter(isObject) : [];
};

/**
 * The driver as ValidateImmutableField prints it: json.Marshal of the internal Go type, which has no
 * json tags, so its fields carry their Go names and a nil slice or pointer is null.
 */
function internalDriverJson(d: JsonObject): string {
  const allocatable = isObject(d.allocatable) ? { Count: d.allocatable.count ?? null } : null;
  const keys = Array.isArray(d.topologyKeys) && d.topologyKeys.length ? d.topologyKeys : null;
  return JSON.stringify({ Name: str(d.name), NodeID: str(d.nodeID), TopologyKeys: keys, Allocatable: allocatable });
}

/** Semantic.DeepEqual of two drivers: allocatable is a pointer, so one left out is not an empty one. */
const sameDriver = (a: JsonObject, b: JsonObject): boolean =>
  isSet(a.allocatable) === isSet(b.allocatable) && semanticEqual(a, b);

/** ValidateCSINode and ValidateCSINodeUpdate. */
export function csiNodeCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const names = new Set<string>();
  const causes = driversOf(obj).flatMap((d, i) => csiNodeDriverCauses(d, names, `spec.drivers[${i}]`));
  if (!old) return causes;
  for (const was of driversOf(old))
    for (const now of driversOf(obj))
      if (now.name === was.name && !sameDriver(now, was))
        causes.push({
          reason: 'FieldValueInvalid',
          field: 'spec.drivers',
          message: `Invalid value: ${internalDriverJson(now)}: field is immutable`,
        });
  return causes;
}
