// kube-apiserver's ValidateResourceSlice and ValidateResourceSliceUpdate (kubernetes/kubernetes
// pkg/apis/resource/validation/validation.go, validateResourceSliceSpec): the driver (ValidateCSIDriverName),
// the pool (validatePoolName, resourceSliceCount, generation), exactly one of nodeName, nodeSelector,
// allNodes (and perDeviceNodeSelection, off in 1.34), and pool name, driver and nodeName fixed on update. Not done: the
// devices and shared counters (their names, attributes, capacities and counters) are stored unchecked.
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, required, tooLong } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { immutable, str, subdomainErrors } from './checks.js';
import { nodeSelectorCauses } from './node-selector.js';
import { objectAt } from './pod-spec.js';

const POOL_NAME_MAX = 253;
const EXACTLY_ONE = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

export function csiDriverNameCauses(name: string, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  if (!name) causes.push(required(path));
  if (name.length > 63) causes.push(tooLong(path, 63));
  for (const m of subdomainErrors(name.toLowerCase())) causes.push(invalid(path, name, m));
  return causes;
}

function poolCauses(pool: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = str(pool.name);
  if (!name) causes.push(required(`${path}.name`));
  else {
    if (name.length > POOL_NAME_MAX) causes.push(tooLong(`${path}.name`, POOL_NAME_MAX));
    for (const part of name.split('/')) {
      for (const m of subdomainErrors(part)) causes.push(invalid(`${path}.name`, part, m));
    }
  }
  const count = typeof pool.resourceSliceCount === 'number' ? pool.resourceSliceCount : 0;
  if (count <= 0) causes.push(invalid(`${path}.resourceSliceCount`, count, 'must be greater than zero'));
  const generation = typeof pool.generation === 'number' ? pool.generation : 0;
  if (generation < 0) causes.push(invalid(`${path}.generation`, generation, 'must be greater than or equal to zero'));
  return causes;
}

export function resourceSliceCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = csiDriverNameCauses(str(spec.driver), 'spec.driver');
  causes.push(...poolCauses(objectAt(spec, 'pool'), 'spec.pool'));
  if (old) {
    const before = objectAt(old, 'spec');
    causes.push(...immutable(objectAt(spec, 'pool').name, objectAt(before, 'pool').name, 'spec.pool.name'));
    causes.push(...immutable(spec.driver, before.driver, 'spec.driver'));
    causes.push(...immutable(spec.nodeName, before.nodeName, 'spec.nodeName'));
  }
  const set: string[] = [];
  if (isSet(spec.nodeName)) {
    const node = str(spec.nodeName);
    if (node) {
      set.push('`nodeName`');
      for (const m of subdomainErrors(node)) causes.push(invalid('spec.nodeName', node, m));
    } else causes.push(invalid('spec.nodeName', node, 'must be either unset or set to a non-empty string'));
  }
  if (isSet(spec.nodeSelector)) {
    set.push('`nodeSelector`');
    causes.push(...nodeSelectorCauses(spec.nodeSelector, 'spec.nodeSelector'));
    const terms = objectAt(spec, 'nodeSelector').nodeSelectorTerms;
    if (!Array.isArray(terms) || terms.length !== 1) {
      const detail = 'must have exactly one node selector term';
      causes.push(invalid('spec.nodeSelector.nodeSelectorTerms', terms ?? null, detail));
    }
  }
  // perDeviceNodeSelection is behind DRAPartitionableDevices, off in 1.34: kube-apiserver drops the field
  // before validation (this server keeps it, unchecked).
  for (const key of ['allNodes']) {
    if (!isSet(spec[key])) continue;
    if (spec[key] === true) set.push(`\`${key}\``);
    else causes.push(invalid(`spec.${key}`, spec[key], 'must be either unset or set to true'));
  }
  if (!set.length) causes.push(required('spec', EXACTLY_ONE));
  else if (set.length > 1) {
    causes.push(invalid('spec', `{${set.join(', ')}}`, `${EXACTLY_ONE}, but multiple fields are set`));
  }
  return causes;
}
