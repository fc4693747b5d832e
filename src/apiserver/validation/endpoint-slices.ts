// kube-apiserver's EndpointSlice validation (kubernetes/kubernetes pkg/apis/discovery/validation/validation.go):
// ValidateEndpointSlice (validateAddressType, validateEndpoints, validatePorts, validateHints) and
// ValidateEndpointSliceUpdate's fixed addressType, as in v1.34, with apimachinery's IsValidIPForLegacyField, IsValidIP
// and IsFullyQualifiedDomainName and core's ValidateEndpointIP. A port's number is not
// checked upstream either.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, invalid, notSupported, required, tooMany } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { labelValueErrors, qualifiedNameErrors } from '../selectors/label-validation.js';
import { immutable, str, subdomainErrors } from './checks.js';
import { dns1123LabelErrors } from './dns.js';
import {
  hasLeadingZeros,
  ipString,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  isV4,
  parseIPSloppy,
} from './go-ip.js';
import { labelMapCauses } from './label-selector.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;

const list = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
const objects = (v: JsonValue | undefined): JsonObject[] => list(v).map((e) => (isObject(e) ? e : {}));
const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

/** core's ValidateEndpointIP: a usable address for traffic, not a strict parse (that is checked beside it). */
export function endpointIPCauses(address: string, path: string): FieldCause[] {
  const ip = parseIPSloppy(address);
  if (!ip) return [invalid(path, address, 'must be a valid IP address')];
  const causes: FieldCause[] = [];
  if (isUnspecified(ip)) causes.push(invalid(path, address, `may not be unspecified (${address})`));
  if (isLoopback(ip)) causes.push(invalid(path, address, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (isLinkLocalUnicast(ip))
    causes.push(invalid(path, address, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (isLinkLocalMulticast(ip))
    causes.push(invalid(path, address, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return causes;
}

/** IsFullyQualifiedDomainName: the first thing wrong, as one error. */
function fqdnCauses(value: string, path: string): FieldCause[] {
  if (value === '') return [required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const sub = subdomainErrors(name);
  if (sub.length) return [invalid(path, name, sub.join(','))];
  const labels = name.split('.');
  if (labels.length < 2)
    return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const errs = dns1123LabelErrors(label);
    if (errs.length) return [invalid(path, label, errs.join(','))];
  }
  return [];
}

/** IsValidIPForLegacyField while StrictIPCIDRValidation is off: ParseIPSloppy reads it. */
const IP_EXAMPLE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** IsValidIP: strict (no leading 0s, no IPv4-mapped IPv6) and canonical. */
function strictIPCauses(a: string, path: string): FieldCause[] {
  const ip = parseIPSloppy(a);
  if (!ip) return [invalid(path, a, IP_EXAMPLE)];
  const causes: FieldCause[] = [];
  if (hasLeadingZeros(a)) causes.push(invalid(path, a, 'must not have leading 0s'));
  if (a.includes(':') && isV4(ip)) causes.push(invalid(path, a, 'must not be an IPv4-mapped IPv6 address'));
  if (causes.length) return causes;
  const canonical = ipString(ip);
  return a === canonical ? [] : [invalid(path, a, `must be in canonical form ("${canonical}")`)];
}

/**
 * validateEndpoints' address checks in v1.34: a parse error alone, else the family (named at the addresses'
 * path, not the address's) and ValidateEndpointIP.
 */
function addressCauses(address: JsonValue, type: string, path: string, listPath: string): FieldCause[] {
  const a = typeof address === 'string' ? address : '';
  const ip = parseIPSloppy(a);
  switch (type) {
    case 'IPv4': {
      if (!ip) return [invalid(path, a, IP_EXAMPLE)];
      const family = isV4(ip) ? [] : [invalid(listPath, a, 'must be an IPv4 address')];
      return [...family, ...endpointIPCauses(a, path)];
    }
    case 'IPv6': {
      const errs = strictIPCauses(a, path);
      if (errs.length || !ip) return errs;
      const family = isV4(ip) ? [invalid(listPath, a, 'must be an IPv6 address')] : [];
      return [...family, ...endpointIPCauses(a, path)];
    }
    case 'FQDN':
      return fqdnCauses(a, path);
    default:
      // Unknown types fall through unchecked.
      return [];
  }
}

function hintCauses(hints: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const zones = objects(hints.forZones);
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(`${path}.forZones`, zones.length, MAX_ZONE_HINTS)];
  const zoneNames = new Set<string>();
  zones.forEach((z, i) => {
    const at = `${path}.forZones[${i}].name`;
    const name = str(z.name);
    if (zoneNames.has(name)) causes.push(duplicate(at, name));
    else zoneNames.add(name);
    for (const m of labelValueErrors(name)) causes.push(invalid(at, name, m));
  });
  const nodes = objects(hints.forNodes);
  if (nodes.length > MAX_NODE_HINTS) return [...causes, tooMany(`${path}.forNodes`, nodes.length, MAX_NODE_HINTS)];
  const nodeNames = new Set<string>();
  nodes.forEach((n, i) => {
    const at = `${path}.forNodes[${i}].name`;
    const name = str(n.name);
    if (nodeNames.has(name)) causes.push(duplicate(at, name));
    else nodeNames.add(name);
    for (const m of subdomainErrors(name)) causes.push(invalid(at, name, m));
  });
  return causes;
}

function endpointCauses(endpoints: JsonValue | undefined, type: string): FieldCause[] {
  const eps = objects(endpoints);
  if (eps.length > MAX_ENDPOINTS) return [tooMany('endpoints', eps.length, MAX_ENDPOINTS)];
  const causes: FieldCause[] = [];
  eps.forEach((ep, i) => {
    const at = `endpoints[${i}]`;
    const addresses = list(ep.addresses);
    if (!addresses.length) causes.push(required(`${at}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) causes.push(tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
    addresses.forEach((a, j) => {
      causes.push(...addressCauses(a, type, `${at}.addresses[${j}]`, `${at}.addresses`));
    });
    if (set(ep.nodeName)) {
      const node = str(ep.nodeName);
      for (const m of subdomainErrors(node)) causes.push(invalid(`${at}.nodeName`, node, m));
    }
    const topology = isObject(ep.deprecatedTopology) ? ep.deprecatedTopology : {};
    const keys = Object.keys(topology).length;
    if (keys > MAX_TOPOLOGY_LABELS) causes.push(tooMany(`${at}.deprecatedTopology`, keys, MAX_TOPOLOGY_LABELS));
    causes.push(...labelMapCauses(topology, `${at}.deprecatedTopology`));
    if (set(ep.hostname)) {
      const host = str(ep.hostname);
      for (const m of dns1123LabelErrors(host)) causes.push(invalid(`${at}.hostname`, host, m));
    }
    if (isObject(ep.hints)) causes.push(...hintCauses(ep.hints, `${at}.hints`));
  });
  return causes;
}

function portCauses(ports: JsonValue | undefined): FieldCause[] {
  const ps = objects(ports);
  if (ps.length > MAX_PORTS) return [tooMany('ports', ps.length, MAX_PORTS)];
  const causes: FieldCause[] = [];
  const names = new Set<string>();
  ps.forEach((p, i) => {
    const at = `ports[${i}]`;
    // Defaulting (SetDefaults_EndpointPort) gave every port a name, empty or not, and a protocol.
    const name = str(p.name);
    if (name) for (const m of dns1123LabelErrors(name)) causes.push(invalid(`${at}.name`, name, m));
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    else names.add(name);
    if (!set(p.protocol)) causes.push(required(`${at}.protocol`));
    else if (typeof p.protocol !== 'string' || !PROTOCOLS.includes(p.protocol))
      causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
    if (set(p.appProtocol)) {
      const app = str(p.appProtocol);
      for (const m of qualifiedNameErrors(app)) causes.push(invalid(`${at}.appProtocol`, app, m));
    }
  });
  return causes;
}

export function endpointSliceCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const type = str(obj.addressType);
  const causes: FieldCause[] = [];
  if (type === '') causes.push(required('addressType'));
  else if (!ADDRESS_TYPES.includes(type)) causes.push(notSupported('addressType', type, ADDRESS_TYPES));
  causes.push(...endpointCauses(obj.endpoints, type), ...portCauses(obj.ports));
  if (old) causes.push(...immutable(obj.addressType ?? '', old.addressType ?? '', 'addressType'));
  return causes;
}
