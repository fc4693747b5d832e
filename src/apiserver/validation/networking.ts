// Part of kube-apiserver's networking validation (kubernetes/kubernetes pkg/apis/networking/validation/
// validation.go): ValidateIngressSpec's default backend (validateIngressBackend), ValidateIngressClass and
// ValidateIngressClassUpdate (validateIngressClassSpec, validateIngressClassParametersReference, the
// immutable controller), ValidateIPAddress (validateIPAddressParentReference) and ValidateIPAddressUpdate,
// ValidateServiceCIDR (validateServiceCIDRSpec) and ValidateServiceCIDRUpdate. Ingress rules and TLS are
// stored unchecked.
import type { JsonObject } from '../registry/types.js';
import { forbidden, invalid, notSupported, required, tooLong } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import {
  cidrErrors,
  domainPrefixedPathCauses,
  IMMUTABLE,
  immutable,
  ipErrors,
  optionalString,
  pathSegmentErrors,
  requiredString,
  str,
  subdomainErrors,
} from './checks.js';
import { dns1123LabelErrors, isValidPort, PORT_RANGE, portNameErrors } from './dns.js';
import { objectAt } from './pod-spec.js';

function typedRefCauses(ref: JsonObject, path: string): FieldCause[] {
  return [
    ...optionalString(ref, 'apiGroup', `${path}.apiGroup`, subdomainErrors),
    ...requiredString(ref, 'kind', `${path}.kind`, pathSegmentErrors),
    ...requiredString(ref, 'name', `${path}.name`, pathSegmentErrors),
  ];
}

function backendCauses(b: JsonObject, path: string): FieldCause[] {
  const service = b.service;
  const resource = b.resource;
  const hasService = service !== undefined && service !== null;
  const hasResource = resource !== undefined && resource !== null;
  if (hasService && hasResource) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return typedRefCauses(objectAt(b, 'resource'), `${path}.resource`);
  if (!hasService) return [invalid(path, '', 'resource or service backend is required')];
  const s = objectAt(b, 'service');
  const causes = requiredString(s, 'name', `${path}.service.name`, dns1123LabelErrors);
  const port = objectAt(s, 'port');
  const name = str(port.name);
  const n = typeof port.number === 'number' ? port.number : 0;
  if (name && n !== 0) causes.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (name) for (const m of portNameErrors(name)) causes.push(invalid(`${path}.service.port.name`, name, m));
  else if (n !== 0) {
    if (!isValidPort(n)) causes.push(invalid(`${path}.service.port.number`, n, PORT_RANGE));
  } else causes.push(required(path, 'port name or number is required'));
  return causes;
}

export function ingressCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const rules = Array.isArray(spec.rules) ? spec.rules : [];
  const hasDefault = spec.defaultBackend !== undefined && spec.defaultBackend !== null;
  const causes: FieldCause[] = [];
  if (!rules.length && !hasDefault)
    causes.push(invalid('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (hasDefault) causes.push(...backendCauses(objectAt(spec, 'defaultBackend'), 'spec.defaultBackend'));
  causes.push(...optionalString(spec, 'ingressClassName', 'spec.ingressClassName', subdomainErrors));
  return causes;
}

const SCOPES = ['Cluster', 'Namespace'];

function parametersCauses(spec: JsonObject): FieldCause[] {
  if (spec.parameters === undefined || spec.parameters === null) return [];
  const p = objectAt(spec, 'parameters');
  const path = 'spec.parameters';
  const causes = typedRefCauses(p, path);
  const scope = p.scope;
  if (scope === undefined || scope === null) return [...causes, required(`${path}.scope`)];
  if (typeof scope !== 'string' || !SCOPES.includes(scope))
    return [...causes, notSupported(`${path}.scope`, scope, SCOPES)];
  const ns = p.namespace;
  if (scope === 'Namespace') {
    if (typeof ns !== 'string') causes.push(required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else for (const m of dns1123LabelErrors(ns)) causes.push(invalid(`${path}.namespace`, ns, m));
  } else if (ns !== undefined && ns !== null) {
    causes.push(forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return causes;
}

export function ingressClassCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const controller = str(spec.controller);
  const causes: FieldCause[] = [];
  if (old) causes.push(...immutable(spec.controller ?? '', objectAt(old, 'spec').controller ?? '', 'spec.controller'));
  if (controller.length > 250) causes.push(tooLong('spec.controller', 250));
  causes.push(...domainPrefixedPathCauses(controller, 'spec.controller'), ...parametersCauses(spec));
  return causes;
}

/** ValidateIPAddressName: an IPAddress is named by the address itself. */
export const ipAddressNameErrors = ipErrors;

export function ipAddressCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  if (old) return immutable(spec.parentRef, objectAt(old, 'spec').parentRef, 'spec.parentRef');
  if (spec.parentRef === undefined || spec.parentRef === null) return [required('spec.parentRef')];
  const ref = objectAt(spec, 'parentRef');
  const path = 'spec.parentRef';
  return [
    ...optionalString(ref, 'group', `${path}.group`, subdomainErrors),
    ...requiredString(ref, 'resource', `${path}.resource`, pathSegmentErrors),
    ...requiredString(ref, 'name', `${path}.name`, pathSegmentErrors),
    ...optionalString(ref, 'namespace', `${path}.namespace`, pathSegmentErrors),
  ];
}

function cidrSpecCauses(cidrs: string[]): FieldCause[] {
  const path = 'spec.cidrs';
  if (!cidrs.length) return [required(path, 'at least one CIDR required')];
  if (cidrs.length > 2) return [invalid(path, { cidrs }, 'may only hold up to 2 values')];
  const causes = cidrs.flatMap((c, i) => cidrErrors(c).map((m) => invalid(`${path}[${i}]`, c, m)));
  const family = (c: string): string => (cidrErrors(c).length ? '' : c.includes(':') ? '6' : '4');
  const [a, b] = cidrs;
  if (a !== undefined && b !== undefined && family(a) !== '' && family(a) === family(b)) {
    const detail = 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64';
    causes.push(invalid(path, cidrs, detail));
  }
  return causes;
}

const cidrList = (o: JsonObject): string[] => {
  const v = objectAt(o, 'spec').cidrs;
  return Array.isArray(v) ? v.map((c) => str(c)) : [];
};

export function serviceCidrCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const now = cidrList(obj);
  if (!old) return cidrSpecCauses(now);
  const before = cidrList(old);
  if (before.length === now.length)
    return before.flatMap((c, i) => (c === now[i] ? [] : [invalid(`spec.cidrs[${i}]`, now[i] ?? '', IMMUTABLE)]));
  if (before.length === 1 && now.length === 2) {
    const causes = before[0] === now[0] ? [] : [invalid('spec.cidrs[0]', now[0] ?? '', IMMUTABLE)];
    return [...causes, ...cidrSpecCauses(now)];
  }
  return [invalid('spec.cidrs', now, IMMUTABLE)];
}
