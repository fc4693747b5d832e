import { get, post, put, serviceAccountStep, setup, type Scenario } from '../scenario.js';

// A StatefulSet's spec, update and status (ValidateStatefulSet, ValidateStatefulSetUpdate,
// ValidateStatefulSetStatusUpdate), each case one mistake, so that the whole Status is compared.

const SETS = '/apis/apps/v1/namespaces/{ns}/statefulsets';
const set = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: 's' } },
    template: { metadata: { labels: { app: 's' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    ...spec,
  },
});

const createCases: Array<[string, string, Record<string, unknown>]> = [
  ['a name that is no DNS label', 'a.b', {}],
  ['an unknown pod management policy', 's', { podManagementPolicy: 'Sometimes' }],
  ['an unknown update strategy', 's', { updateStrategy: { type: 'Sideways' } }],
  ['a rolling update on OnDelete', 's', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }],
  ['a negative partition', 's', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }],
  [
    'maxUnavailable, whose gate is off',
    's',
    { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } },
  ],
  ['an unknown retention policy', 's', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }],
  ['a negative minReadySeconds', 's', { minReadySeconds: -1 }],
  ['a negative ordinals start', 's', { ordinals: { start: -1 } }],
  ['a service name that is no DNS label', 's', { serviceName: 'A_B' }],
];

const updateCases: Array<[string, Record<string, unknown>]> = [
  ['its service name changed', { serviceName: 'other' }],
  ['its replicas and minReadySeconds changed', { replicas: 3, minReadySeconds: 5 }],
  ['its pod management policy changed', { podManagementPolicy: 'Parallel' }],
];

const statusCases: Array<[string, Record<string, unknown>]> = [
  ['more ready than replicas', { replicas: 1, readyReplicas: 2 }],
  ['a negative updated count', { replicas: 1, updatedReplicas: -1 }],
  ['more available than ready', { replicas: 2, readyReplicas: 1, availableReplicas: 2 }],
];

export const STATEFULSET_SCENARIOS: Scenario[] = [
  ...createCases.map(
    ([what, name, spec]): Scenario => ({
      name: `statefulsets: create, ${what}`,
      steps: [post(SETS, set(name, spec), { select: 'spec' })],
    }),
  ),
  ...updateCases.map(
    ([what, spec]): Scenario => ({
      name: `statefulsets: update, ${what}`,
      steps: [
        setup(post(SETS, set('s', { serviceName: 'svc' }))),
        setup(get(`${SETS}/s`, { capture: { rv: 'metadata.resourceVersion' } })),
        put(
          `${SETS}/s`,
          { ...set('s', { serviceName: 'svc', ...spec }), metadata: { name: 's', resourceVersion: '${rv}' } },
          { select: 'spec' },
        ),
      ],
    }),
  ),
  ...statusCases.map(
    ([what, status]): Scenario => ({
      name: `statefulsets: status, ${what}`,
      steps: [
        setup(post(SETS, set('s'))),
        setup(get(`${SETS}/s`, { capture: { rv: 'metadata.resourceVersion' } })),
        put(
          `${SETS}/s/status`,
          { ...set('s'), metadata: { name: 's', resourceVersion: '${rv}' }, status },
          { select: 'status' },
        ),
      ],
    }),
  ),
];

// A Pod's status IPs (validatePodIPs, validateHostIPs) and a Service's clusterIP changed by an old
// client (normalizeClusterIPs), both read through the v1 conversion of the singular fields.
const PODS = '/api/v1/namespaces/{ns}/pods';
const SERVICES = '/api/v1/namespaces/{ns}/services';
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { serviceAccountName: 'sa', containers: [{ name: 'c', image: 'busybox' }] },
};
const statusCases2: Array<[string, Record<string, unknown>]> = [
  ['a bad podIP', { podIP: '10.0.0.300' }],
  ['two IPv4 podIPs', { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }],
  ['a podIP that differs from podIPs', { podIP: '10.0.0.3', podIPs: [{ ip: '10.0.0.4' }] }],
  ['hostIPs without hostIP', { hostIPs: [{ ip: '10.1.0.1' }] }],
  ['a negative observedGeneration', { observedGeneration: -1 }],
];

export const POD_STATUS_SCENARIOS: Scenario[] = [
  ...statusCases2.map(
    ([what, status]): Scenario => ({
      name: `pod status: ${what}`,
      steps: [
        serviceAccountStep(),
        setup(post(PODS, pod)),
        setup(get(`${PODS}/p`, { capture: { rv: 'metadata.resourceVersion' } })),
        put(
          `${PODS}/p/status`,
          { ...pod, metadata: { name: 'p', resourceVersion: '${rv}' }, status },
          { select: 'status', ignore: ['status.startTime', 'status.conditions'] },
        ),
      ],
    }),
  ),
  {
    name: 'service: an old client changes clusterIP and leaves clusterIPs',
    steps: [
      setup(
        post(
          SERVICES,
          { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } },
          { capture: { ip: 'spec.clusterIP', rv: 'metadata.resourceVersion' } },
        ),
      ),
      setup(get(`${SERVICES}/s`, { capture: { ips: 'spec.clusterIPs', rv: 'metadata.resourceVersion' } })),
      put(`${SERVICES}/s`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', resourceVersion: '${rv}' },
        spec: { ports: [{ port: 80 }], clusterIP: '10.0.0.250', clusterIPs: ['${ip}'] },
      }),
    ],
  },
];
