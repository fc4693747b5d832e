import { bool, int, intOrString, objectMeta, quantity, string } from '../scalars.js';
import { list, map, message, ptr, req } from '../schema.js';
import { localObjectReference, objectReference, portStatus } from './core-refs.js';
import { condition } from './meta-v1.js';

/** core/v1 kinds `kubectl create service|serviceaccount|quota` send (Namespace, ConfigMap, Secret: ../kinds.ts). */

const servicePort = message('ServicePort', () => [
  [1, 'name', string],
  [2, 'protocol', string],
  [6, 'appProtocol', ptr(string)],
  [3, 'port', req(int)],
  [4, 'targetPort', intOrString],
  [5, 'nodePort', int],
]);

const sessionAffinityConfig = message('SessionAffinityConfig', () => [
  [1, 'clientIP', ptr(message('ClientIPConfig', () => [[1, 'timeoutSeconds', ptr(int)]]))],
]);

const serviceSpec = message('ServiceSpec', () => [
  [1, 'ports', list(servicePort)],
  [2, 'selector', map(string)],
  [3, 'clusterIP', string],
  [18, 'clusterIPs', list(string)],
  [4, 'type', string],
  [5, 'externalIPs', list(string)],
  [7, 'sessionAffinity', string],
  [8, 'loadBalancerIP', string],
  [9, 'loadBalancerSourceRanges', list(string)],
  [10, 'externalName', string],
  [11, 'externalTrafficPolicy', string],
  [12, 'healthCheckNodePort', int],
  [13, 'publishNotReadyAddresses', bool],
  [14, 'sessionAffinityConfig', ptr(sessionAffinityConfig)],
  [19, 'ipFamilies', list(string)],
  [17, 'ipFamilyPolicy', ptr(string)],
  [20, 'allocateLoadBalancerNodePorts', ptr(bool)],
  [21, 'loadBalancerClass', ptr(string)],
  [22, 'internalTrafficPolicy', ptr(string)],
  [23, 'trafficDistribution', ptr(string)],
]);

const loadBalancerIngress = message('LoadBalancerIngress', () => [
  [1, 'ip', string],
  [2, 'hostname', string],
  [3, 'ipMode', ptr(string)],
  [4, 'ports', list(portStatus)],
]);

const serviceStatus = message('ServiceStatus', () => [
  [1, 'loadBalancer', message('LoadBalancerStatus', () => [[1, 'ingress', list(loadBalancerIngress)]])],
  [2, 'conditions', list(condition)],
]);

const service = message('Service', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', serviceSpec],
  [3, 'status', serviceStatus],
]);

const serviceAccount = message('ServiceAccount', () => [
  [1, 'metadata', objectMeta],
  [2, 'secrets', list(objectReference)],
  [3, 'imagePullSecrets', list(localObjectReference)],
  [4, 'automountServiceAccountToken', ptr(bool)],
]);

const scopeSelector = message('ScopeSelector', () => [
  [
    1,
    'matchExpressions',
    list(
      message('ScopedResourceSelectorRequirement', () => [
        [1, 'scopeName', req(string)],
        [2, 'operator', req(string)],
        [3, 'values', list(string)],
      ]),
    ),
  ],
]);

const resourceQuota = message('ResourceQuota', () => [
  [1, 'metadata', objectMeta],
  [
    2,
    'spec',
    message('ResourceQuotaSpec', () => [
      [1, 'hard', map(quantity)],
      [2, 'scopes', list(string)],
      [3, 'scopeSelector', ptr(scopeSelector)],
    ]),
  ],
  [
    3,
    'status',
    message('ResourceQuotaStatus', () => [
      [1, 'hard', map(quantity)],
      [2, 'used', map(quantity)],
    ]),
  ],
]);

export const CORE_V1 = {
  'v1/Service': service,
  'v1/ServiceAccount': serviceAccount,
  'v1/ResourceQuota': resourceQuota,
};
