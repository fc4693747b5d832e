// Part of kube-apiserver v1.34's ValidatePodStatusUpdate (pkg/apis/core/validation): validatePodIPs and
// validateHostIPs (each IP valid unless the stored status has it, sloppy parsing while
// StrictIPCIDRValidation is off, one per family, hostIP equal to hostIPs[0]), nominatedNodeName a
// subdomain and observedGeneration non-negative. The conditions, container state transitions and
// the rest of it are not checked here.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid } from '../schema/field-errors.js';
import { goJson } from '../schema/gofmt.js';
import type { FieldCause } from '../schema/types.js';
import { str, subdomainErrors } from './checks.js';
import { familyCheck, ipFamily, parseIPSloppy } from './go-ip.js';

const IP_EXAMPLE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

const objectOf = (v: JsonValue | undefined): JsonObject => (isObject(v) ? v : {});
const ipsOf = (v: JsonValue | undefined): string[] => (Array.isArray(v) ? v.map((x) => str(objectOf(x).ip)) : []);

function ipListCauses(ips: string[], kept: string[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  ips.forEach((ip, i) => {
    if (!kept.includes(ip) && !parseIPSloppy(ip)) causes.push(invalid(`${path}[${i}]`, ip, IP_EXAMPLE));
  });
  if (ips.length > 1) {
    const { unparsed, oneOfEach } = familyCheck(ips.map(ipFamily));
    if (unparsed >= 0)
      causes.push({
        reason: 'InternalError',
        field: path,
        message: `Internal error: failed to check for dual stack with error:invalid IP address: ${ips[unparsed]}`,
      });
    if (!oneOfEach) {
      // The value shown is the internal []PodIP (or []HostIP), which has no JSON tags.
      const shown = `[${ips.map((ip) => `{"IP":${goJson(ip)}}`).join(',')}]`;
      causes.push({
        ...invalid(path, '', ''),
        message: `Invalid value: ${shown}: may specify no more than one IP for each IP family`,
      });
    }
  }
  return causes;
}

export function podStatusCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const status = objectOf(obj.status);
  const before = objectOf(old?.status);
  const causes: FieldCause[] = [];
  const nominated = str(status.nominatedNodeName);
  if (nominated && nominated !== str(before.nominatedNodeName))
    for (const m of subdomainErrors(nominated)) causes.push(invalid('status.nominatedNodeName', nominated, m));
  const generation = status.observedGeneration;
  if (typeof generation === 'number' && generation < 0)
    causes.push(invalid('status.observedGeneration', generation, 'must be a non-negative integer'));
  causes.push(...ipListCauses(ipsOf(status.podIPs), ipsOf(before.podIPs), 'status.podIPs'));
  const hostIPs = ipsOf(status.hostIPs);
  if (hostIPs.length > 0) {
    if (str(status.hostIP) !== hostIPs[0])
      causes.push(invalid('status.hostIPs[0].ip', hostIPs[0], 'must be equal to `hostIP`'));
    causes.push(...ipListCauses(hostIPs, ipsOf(before.hostIPs), 'status.hostIPs'));
  }
  return causes;
}
