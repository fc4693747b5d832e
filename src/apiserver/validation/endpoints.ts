// kube-apiserver's validateEndpointSubsets (kubernetes/kubernetes pkg/apis/core/validation/validation.go, with
// validateEndpointAddress's ValidateEndpointIP and validateEndpointPort): each subset has addresses, each address a
// usable IP, each port a number in range, a protocol and, when there are several, a name.
import { isIP } from 'node:net';
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { str } from './checks.js';
import { dns1123LabelErrors, isValidPort, PORT_RANGE } from './dns.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const list = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

function ipCauses(ip: string, path: string): FieldCause[] {
  if (!isIP(ip)) return [invalid(path, ip, 'must be a valid IP address')];
  if (ip === '0.0.0.0' || ip === '::') return [invalid(path, ip, `may not be unspecified (${ip})`)];
  if (ip.startsWith('127.') || ip === '::1')
    return [invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)')];
  if (ip.startsWith('169.254.') || /^fe[89ab]/i.test(ip))
    return [invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)')];
  return [];
}

function portCauses(p: JsonObject, requireName: boolean, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = str(p.name);
  if (requireName && !name) causes.push(required(`${path}.name`));
  else if (name) causes.push(...dns1123LabelErrors(name).map((m) => invalid(`${path}.name`, name, m)));
  if (!isValidPort(p.port ?? 0)) causes.push(invalid(`${path}.port`, p.port ?? 0, PORT_RANGE));
  const proto = p.protocol;
  if (proto === undefined || proto === null || proto === '') causes.push(required(`${path}.protocol`));
  else if (typeof proto !== 'string' || !PROTOCOLS.includes(proto))
    causes.push(notSupported(`${path}.protocol`, proto, PROTOCOLS));
  return causes;
}

export function endpointsCauses(obj: JsonObject): FieldCause[] {
  const causes: FieldCause[] = [];
  list(obj.subsets).forEach((ss, i) => {
    const at = `subsets[${i}]`;
    const addresses = list(ss.addresses);
    const notReady = list(ss.notReadyAddresses);
    if (!addresses.length && !notReady.length)
      causes.push(required(at, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [j, a] of addresses.entries()) causes.push(...ipCauses(str(a.ip), `${at}.addresses[${j}].ip`));
    for (const [j, a] of notReady.entries()) causes.push(...ipCauses(str(a.ip), `${at}.notReadyAddresses[${j}].ip`));
    const ports = list(ss.ports);
    for (const [j, p] of ports.entries()) causes.push(...portCauses(p, ports.length > 1, `${at}.ports[${j}]`));
  });
  return causes;
}
