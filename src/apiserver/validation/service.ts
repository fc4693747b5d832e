// Part of kube-apiserver's ValidateService (kubernetes/kubernetes pkg/apis/core/validation/validation.go:
// ValidateService, validateServicePort, validateServiceExternalTrafficPolicy,
// validateServiceInternalTrafficFieldsValue)
// and of the Service REST storage's ipFamilyPolicy check, which runs first and alone
// (pkg/registry/core/service/storage/alloc.go initIPFamilyFields). On an update that changes the type,
// upstream's strategy first drops the type-dependent fields left as they were (strategy.go
// dropTypeDependentFields); here they are not checked instead (they stay stored, as before).
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { dns1123LabelErrors, isValidPort, PORT_RANGE, portNameErrors } from './dns.js';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const EXTERNAL = new Set(['NodePort', 'LoadBalancer']);

function enumCause(spec: JsonObject, field: string, valid: string[]): FieldCause[] {
  const v = spec[field];
  return typeof v === 'string' && !valid.includes(v) ? [notSupported(`spec.${field}`, v, valid)] : [];
}

/** The type changed and `field` of `spec` is what it was: dropTypeDependentFields would drop it. */
type Kept = (get: (spec: JsonObject) => JsonValue | undefined) => boolean;

function keptOnTypeChange(spec: JsonObject, old: JsonObject | undefined): Kept {
  const before = old && isObject(old.spec) ? old.spec : undefined;
  if (!before || (before.type ?? 'ClusterIP') === (spec.type ?? 'ClusterIP')) return () => false;
  return (get) => JSON.stringify(get(spec) ?? null) === JSON.stringify(get(before) ?? null);
}

function portCauses(
  p: JsonObject,
  at: string,
  requireName: boolean,
  names: Set<string>,
  type: JsonValue | undefined,
  kept: Kept,
): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = typeof p.name === 'string' ? p.name : '';
  if (requireName && name === '') causes.push(required(`${at}.name`));
  else if (name !== '') {
    for (const m of dns1123LabelErrors(name)) causes.push(invalid(`${at}.name`, name, m));
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    names.add(name);
  }
  const port = p.port ?? 0;
  if (!isValidPort(port)) causes.push(invalid(`${at}.port`, port, PORT_RANGE));
  if (typeof p.protocol === 'string' && !PROTOCOLS.includes(p.protocol))
    causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  const target = p.targetPort;
  if (typeof target === 'number' && !isValidPort(target)) causes.push(invalid(`${at}.targetPort`, target, PORT_RANGE));
  if (typeof target === 'string')
    for (const m of portNameErrors(target)) causes.push(invalid(`${at}.targetPort`, target, m));
  const nodePortsKept = kept((spec) =>
    Array.isArray(spec.ports) ? spec.ports.map((q) => (isObject(q) ? (q.nodePort ?? 0) : 0)) : [],
  );
  if (
    typeof p.nodePort === 'number' &&
    p.nodePort !== 0 &&
    (type === 'ClusterIP' || type === undefined) &&
    !nodePortsKept
  ) {
    causes.push(forbidden(`${at}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
  }
  return causes;
}

function trafficCauses(spec: JsonObject, kept: Kept): FieldCause[] {
  const causes: FieldCause[] = [];
  const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
  if (
    spec.allocateLoadBalancerNodePorts != null &&
    type !== 'LoadBalancer' &&
    !kept((x) => x.allocateLoadBalancerNodePorts)
  ) {
    causes.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  const etp = spec.externalTrafficPolicy;
  if (typeof etp === 'string' && etp !== '' && !(!EXTERNAL.has(type) && kept((x) => x.externalTrafficPolicy))) {
    if (!EXTERNAL.has(type))
      causes.push(invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
    else if (!['Cluster', 'Local'].includes(etp))
      causes.push(notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
  }
  const hc = spec.healthCheckNodePort;
  if (
    typeof hc === 'number' &&
    hc !== 0 &&
    !(type === 'LoadBalancer' && etp === 'Local') &&
    !kept((x) => x.healthCheckNodePort)
  ) {
    causes.push(
      invalid(
        'spec.healthCheckNodePort',
        hc,
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ),
    );
  }
  causes.push(...enumCause(spec, 'internalTrafficPolicy', ['Cluster', 'Local']));
  if (spec.loadBalancerClass != null && type !== 'LoadBalancer' && !kept((x) => x.loadBalancerClass)) {
    causes.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  causes.push(...enumCause(spec, 'trafficDistribution', ['PreferClose', 'PreferSameZone', 'PreferSameNode']));
  return causes;
}

export function serviceCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const kept = keptOnTypeChange(spec, old);
  const family = enumCause(spec, 'ipFamilyPolicy', IP_FAMILY_POLICIES);
  if (family.length) return family;
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  const causes: FieldCause[] = [];
  if (!ports.length && spec.type !== 'ExternalName' && spec.clusterIP !== 'None') causes.push(required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    if (isObject(p)) causes.push(...portCauses(p, `spec.ports[${i}]`, ports.length > 1, names, spec.type, kept));
  });
  causes.push(...enumCause(spec, 'sessionAffinity', ['ClientIP', 'None']));
  causes.push(...enumCause(spec, 'type', TYPES));
  causes.push(...trafficCauses(spec, kept));
  return causes;
}
