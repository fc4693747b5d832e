// A Node as its decoding leaves it (and a Pod's IPs, converted alike): podCIDR and podCIDRs as the v1 ↔ internal conversion leaves them
// (pkg/apis/core/v1/conversion.go), and SetDefaults_NodeStatus.
import type { JsonObject, JsonValue } from '../registry/types.js';

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
const stringsOf = (v: JsonValue | undefined): string[] => (Array.isArray(v) ? v.map(str) : []);

/**
 * Convert_v1_NodeSpec_To_core_NodeSpec and back: podCIDR is authoritative when it differs from
 * podCIDRs[0] or podCIDRs is empty, and is written back as podCIDRs[0].
 */
function syncPodCIDRs(obj: JsonObject): void {
  const spec = obj.spec;
  if (!isObject(spec)) return;
  const single = str(spec.podCIDR);
  const list = stringsOf(spec.podCIDRs);
  if (single && (list.length === 0 || list[0] !== single)) spec.podCIDRs = [single];
  const first = stringsOf(spec.podCIDRs)[0];
  if (first) spec.podCIDR = first;
}

/** SetDefaults_NodeStatus: allocatable is the capacity when only the capacity is given. */
export function defaultNode(obj: JsonObject): void {
  syncPodCIDRs(obj);
  const status = obj.status;
  if (isObject(status) && status.allocatable == null && isObject(status.capacity))
    status.allocatable = { ...status.capacity };
}

/**
 * Convert_v1_PodStatus_To_core_PodStatus and back: podIP is authoritative when it differs from
 * podIPs[0] or podIPs is empty, and is written back as podIPs[0].
 */
export function syncPodIPs(obj: JsonObject): void {
  const status = obj.status;
  if (!isObject(status)) return;
  const single = str(status.podIP);
  const list = Array.isArray(status.podIPs) ? status.podIPs : [];
  const first = list[0];
  const firstIP = isObject(first) ? str(first.ip) : '';
  if (single && (list.length === 0 || firstIP !== single)) status.podIPs = [{ ip: single }];
  const now = Array.isArray(status.podIPs) ? status.podIPs[0] : undefined;
  if (isObject(now) && str(now.ip)) status.podIP = str(now.ip);
}
