// kube-apiserver v1.34's ValidateNode and ValidateNodeUpdate (pkg/apis/core/validation), which the
// status subresource shares: taints (reported under metadata.taints, as upstream's path names them),
// capacity and allocatable quantities, the swap capacity, podCIDRs (sloppy CIDRs while
// StrictIPCIDRValidation is off, one per family) fixed once set, providerID fixed once set,
// externalID never changed, and no address listed twice. Not checked here: the taints and
// preferAvoidPods annotations, and the deprecated configSource.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import { goJson } from '../schema/gofmt.js';
import type { FieldCause } from '../schema/types.js';
import { labelValueErrors, qualifiedNameErrors } from '../selectors/label-validation.js';
import { str } from './checks.js';
import { cidrFamily, familyCheck } from './go-ip.js';
import { quantityOf, quantityValueCauses } from './resource-names.js';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const CIDR_EXAMPLE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const CIDR_FIXED = 'node updates may not change podCIDR except from "" to valid';

const objectOf = (v: JsonValue | undefined): JsonObject => (isObject(v) ? v : {});
const stringsOf = (v: JsonValue | undefined): string[] => (Array.isArray(v) ? v.map((s) => str(s)) : []);

function taintCauses(taints: JsonValue | undefined): FieldCause[] {
  if (!Array.isArray(taints)) return [];
  const causes: FieldCause[] = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    if (!isObject(t)) return;
    const at = `metadata.taints[${i}]`;
    const key = str(t.key);
    for (const m of qualifiedNameErrors(key)) causes.push(invalid(`${at}.key`, key, m));
    const value = str(t.value);
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length) causes.push(invalid(`${at}.value`, value, valueErrors.join(';')));
    const effect = str(t.effect);
    if (!effect) causes.push(required(`${at}.effect`));
    else if (!EFFECTS.includes(effect)) causes.push(notSupported(`${at}.effect`, effect, EFFECTS));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      // The value shown is the internal Taint, which has no JSON tags: its fields in their order.
      const internal = `{"Key":${goJson(key)},"Value":${goJson(value)},"Effect":${goJson(effect)},"TimeAdded":${goJson(t.timeAdded ?? null)}}`;
      causes.push({
        ...duplicate(at, ''),
        message: `Duplicate value: ${internal}: taints must be unique by key and effect pair`,
      });
      return;
    }
    keys.add(key);
    seen.set(effect, keys);
  });
  return causes;
}

function resourceCauses(status: JsonObject): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const list of ['capacity', 'allocatable']) {
    for (const [k, v] of Object.entries(objectOf(status[list]))) {
      const q = quantityOf(v);
      if (q) causes.push(...quantityValueCauses(k, q, `status.${list}.${k}`));
    }
  }
  return causes;
}

function podCidrCauses(cidrs: string[]): FieldCause[] {
  if (cidrs.length === 0) return [];
  const causes: FieldCause[] = [];
  const families = cidrs.map(cidrFamily);
  families.forEach((f, i) => {
    if (f === undefined) causes.push(invalid(`spec.podCIDRs[${i}]`, cidrs[i], CIDR_EXAMPLE));
  });
  if (cidrs.length > 1) {
    const { unparsed, oneOfEach } = familyCheck(families);
    if (unparsed >= 0)
      causes.push({
        reason: 'InternalError',
        field: 'spec.podCIDRs',
        message: `Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR address: ${cidrs[unparsed]}`,
      });
    if (!oneOfEach)
      causes.push(invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return causes;
}

function addressCauses(status: JsonObject): FieldCause[] {
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  (Array.isArray(status.addresses) ? status.addresses : []).forEach((a, i) => {
    if (!isObject(a)) return;
    const key = `{"Type":${goJson(str(a.type))},"Address":${goJson(str(a.address))}}`;
    if (seen.has(key)) causes.push({ ...duplicate(`status.addresses[${i}]`, ''), message: `Duplicate value: ${key}` });
    seen.add(key);
  });
  return causes;
}

/** ValidateNode. */
function nodeCreateCauses(obj: JsonObject): FieldCause[] {
  const spec = objectOf(obj.spec);
  const status = objectOf(obj.status);
  const causes = taintCauses(spec.taints);
  causes.push(...resourceCauses(status));
  const swap = objectOf(objectOf(status.nodeInfo).swap).capacity;
  if (typeof swap === 'number' && swap <= 0)
    causes.push(invalid('metadata.nodeSwapStatus.capacity', swap, 'must be greater than zero'));
  causes.push(...podCidrCauses(stringsOf(spec.podCIDRs)));
  return causes;
}

/** ValidateNodeUpdate, which the status subresource runs alone. */
export function nodeUpdateCauses(obj: JsonObject, old: JsonObject): FieldCause[] {
  const spec = objectOf(obj.spec);
  const status = objectOf(obj.status);
  const before = objectOf(old.spec);
  const causes = [...resourceCauses(status), ...addressCauses(status)];
  const was = stringsOf(before.podCIDRs);
  const now = stringsOf(spec.podCIDRs);
  if (was.length > 0) {
    if (was.length !== now.length) causes.push(forbidden('spec.podCIDRs', CIDR_FIXED));
    else for (const [i, c] of was.entries()) if (c !== now[i]) causes.push(forbidden('spec.podCIDRs', CIDR_FIXED));
  }
  const provider = str(before.providerID);
  if (provider && provider !== str(spec.providerID))
    causes.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  causes.push(...taintCauses(spec.taints));
  if (str(spec.externalID) !== str(before.externalID)) causes.push(forbidden('spec.externalID', 'may not be updated'));
  return causes;
}

/** nodeStrategy: ValidateNode on create; ValidateNode and then ValidateNodeUpdate on update. */
export function nodeCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const causes = nodeCreateCauses(obj);
  return old ? [...causes, ...nodeUpdateCauses(obj, old)] : causes;
}
