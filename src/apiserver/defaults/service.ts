import type { JsonObject } from '../registry/types.js';
import { applyRows, existingObject, objectAt, objectsIn, type DefaultRow } from './fields.js';

/** SetDefaults_Service (pkg/apis/core/v1/defaults.go): the spec's own fields. */
const SERVICE_SPEC: readonly DefaultRow[] = [
  ['sessionAffinity', 'None', 'zero'],
  ['type', 'ClusterIP', 'zero'],
];

/** ServicePort.protocol (SetDefaults_Service and the declarative `+default="TCP"`). */
const SERVICE_PORT: readonly DefaultRow[] = [['protocol', 'TCP', 'zero']];

/** v1.DefaultClientIPServiceAffinitySeconds: three hours. */
const CLIENT_IP_TIMEOUT = 10800;

/** The types internalTrafficPolicy is defaulted for (not ExternalName). */
const PROXIED_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer'];

/**
 * SetDefaults_Service. What the registry allocates on top (clusterIP, clusterIPs, ipFamilies,
 * ipFamilyPolicy, node ports) is service-allocator.ts's, since it depends on what other Services hold.
 */
export function defaultService(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, SERVICE_SPEC);
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = existingObject(existingObject(spec, 'sessionAffinityConfig') ?? {}, 'clientIP');
    if (clientIP?.timeoutSeconds == null)
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: CLIENT_IP_TIMEOUT } };
  }
  for (const port of objectsIn(spec, 'ports')) {
    applyRows(port, SERVICE_PORT);
    // targetPort is an IntOrString: 0 and "" both mean unset.
    if (port.targetPort == null || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port ?? 0;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy == null && PROXIED_TYPES.includes(String(spec.type)))
    spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts == null)
    spec.allocateLoadBalancerNodePorts = true;
}

/** service.ExternallyAccessible (pkg/api/v1/service/util.go). */
function externallyAccessible(spec: JsonObject): boolean {
  const externalIPs = Array.isArray(spec.externalIPs) ? spec.externalIPs : [];
  return (
    spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && externalIPs.length > 0)
  );
}
