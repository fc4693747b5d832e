// A Node and a Pod's status IPs as their decoding leaves them: podCIDR/podCIDRs and podIP/podIPs as the
// v1 ↔ internal conversion leaves them (pkg/apis/core/v1/conversion.go), and SetDefaults_NodeStatus.
import type { JsonObject, JsonValue } from '../registry/types.js';
import { existingObject, isObject } from './fields.js';

const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

/**
 * The conversion rule both pairs share (Convert_v1_NodeSpec_To_core_NodeSpec, Convert_v1_PodStatus_To_core_PodStatus
 * and back): the singular field is authoritative when the list is empty or starts elsewhere, and is
 * written back as the list's first entry. `read` and `make` turn an entry into its text and back.
 */
function syncSingular(
  o: JsonObject | undefined,
  single: string,
  list: string,
  read: (entry: JsonValue | undefined) => string,
  make: (text: string) => JsonValue,
): void {
  if (!o) return;
  const one = str(o[single]);
  const entries = Array.isArray(o[list]) ? o[list] : [];
  if (one && (entries.length === 0 || read(entries[0]) !== one)) o[list] = [make(one)];
  const now = Array.isArray(o[list]) ? read(o[list][0]) : '';
  if (now) o[single] = now;
}

/** SetDefaults_NodeStatus: allocatable is the capacity when only the capacity is given. */
export function defaultNode(obj: JsonObject): void {
  syncSingular(existingObject(obj, 'spec'), 'podCIDR', 'podCIDRs', str, (text) => text);
  const status = obj.status;
  if (isObject(status) && status.allocatable == null && isObject(status.capacity))
    status.allocatable = { ...status.capacity };
}

/** A Pod status's podIP and podIPs, converted as a Node's podCIDR and podCIDRs are. */
export function syncPodIPs(obj: JsonObject): void {
  const ipOf = (entry: JsonValue | undefined): string => (isObject(entry) ? str(entry.ip) : '');
  syncSingular(existingObject(obj, 'status'), 'podIP', 'podIPs', ipOf, (ip) => ({ ip }));
}
