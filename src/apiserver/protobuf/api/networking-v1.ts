import { int, objectMeta, string } from '../scalars.js';
import { inline, list, message, nullList, ptr, req } from '../schema.js';
import { typedLocalObjectReference } from './core-refs.js';

/** networking.k8s.io/v1 Ingress, which `kubectl create ingress` sends. */

const ingressBackend = message('IngressBackend', () => [
  [
    4,
    'service',
    ptr(
      message('IngressServiceBackend', () => [
        [1, 'name', req(string)],
        [2, 'port', message('ServiceBackendPort', () => [[1, 'name', string], [2, 'number', int]])],
      ]),
    ),
  ],
  [3, 'resource', ptr(typedLocalObjectReference)],
]);

const httpIngressPath = message('HTTPIngressPath', () => [
  [1, 'path', string],
  [3, 'pathType', ptr(string)],
  [2, 'backend', ingressBackend],
]);

const ingressRule = message('IngressRule', () => [
  [1, 'host', string],
  [2, '', inline(message('IngressRuleValue', () => [[1, 'http', ptr(message('HTTPIngressRuleValue', () => [[1, 'paths', nullList(httpIngressPath)]]))]]))],
]);

const ingressTLS = message('IngressTLS', () => [
  [1, 'hosts', list(string)],
  [2, 'secretName', string],
]);

const ingressPortStatus = message('IngressPortStatus', () => [
  [1, 'port', req(int)],
  [2, 'protocol', req(string)],
  [3, 'error', ptr(string)],
]);

const ingressLoadBalancerIngress = message('IngressLoadBalancerIngress', () => [
  [1, 'ip', string],
  [2, 'hostname', string],
  [4, 'ports', list(ingressPortStatus)],
]);

const ingress = message('Ingress', () => [
  [1, 'metadata', objectMeta],
  [
    2,
    'spec',
    message('IngressSpec', () => [
      [4, 'ingressClassName', ptr(string)],
      [1, 'defaultBackend', ptr(ingressBackend)],
      [2, 'tls', list(ingressTLS)],
      [3, 'rules', list(ingressRule)],
    ]),
  ],
  [3, 'status', message('IngressStatus', () => [[1, 'loadBalancer', message('IngressLoadBalancerStatus', () => [[1, 'ingress', list(ingressLoadBalancerIngress)]])]])],
]);

export const NETWORKING_V1 = { 'networking.k8s.io/v1/Ingress': ingress };
