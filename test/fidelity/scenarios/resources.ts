import { post, type Scenario } from '../scenario.js';

// A LimitRange's items (ValidateLimitRange), a container's resources (validateResourceRequirements)
// and its env and envFrom (ValidateEnv, ValidateEnvFrom), each case one mistake, so that the whole
// Status is compared: its message lists the causes in the order the server found them.

const LIMIT_RANGES = '/api/v1/namespaces/{ns}/limitranges';
// Pod templates, not Pods: the real server's ServiceAccount admission refuses a Pod of a namespace whose
// default ServiceAccount no controller has made yet, before validation runs.
const POD_TEMPLATES = '/api/v1/namespaces/{ns}/podtemplates';

const limitRange = (name: string, limits: unknown[]) => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name },
  spec: { limits },
});

const limitCases: Array<[string, unknown[]]> = [
  [
    'a valid Container item, defaulted from max and min',
    [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }],
  ],
  ['an unknown type', [{ type: 'Node', max: { cpu: '1' } }]],
  ['a qualified type', [{ type: 'example.com/thing', max: { 'example.com/widgets': '1' } }]],
  [
    'a type given twice',
    [
      { type: 'Pod', max: { cpu: '1' } },
      { type: 'Pod', max: { cpu: '2' } },
    ],
  ],
  ['a Pod item with a default', [{ type: 'Pod', default: { cpu: '1' } }]],
  ['a resource that is not a container resource', [{ type: 'Container', max: { pods: '1' } }]],
  ['a resource that is no resource', [{ type: 'PersistentVolumeClaim', max: { widgets: '1' } }]],
  ['a claim item without a storage bound', [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }]],
  ['min above max', [{ type: 'Pod', min: { cpu: '2' }, max: { cpu: '1500m' } }]],
  [
    'a default request above the default',
    [{ type: 'Container', default: { memory: '1Gi' }, defaultRequest: { memory: '2Gi' } }],
  ],
  ['a ratio below 1', [{ type: 'Pod', maxLimitRequestRatio: { cpu: '500m' } }]],
  [
    'a ratio above max/min',
    [{ type: 'Pod', min: { cpu: '100m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '20' } }],
  ],
  [
    'huge pages default and request unequal',
    [{ type: 'Container', default: { 'hugepages-2Mi': '4Mi' }, defaultRequest: { 'hugepages-2Mi': '2Mi' } }],
  ],
];

const QUOTAS = '/api/v1/namespaces/{ns}/resourcequotas';
const quota = (name: string, spec: unknown) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec });

const quotaCases: Array<[string, unknown]> = [
  ['a valid quota with scopes', { hard: { pods: '10', 'requests.cpu': '4' }, scopes: ['NotTerminating'] }],
  ['a resource that is not a quota resource', { hard: { storage: '1Gi' } }],
  ['pods that are not whole', { hard: { pods: '1500m' } }],
  ['a negative count', { hard: { secrets: '-1' } }],
  ['an unknown scope', { hard: { pods: '1' }, scopes: ['Sometimes'] }],
  ['a scope that does not fit a resource', { hard: { 'requests.storage': '1Gi' }, scopes: ['BestEffort'] }],
  ['conflicting scopes', { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] }],
  [
    'a selector scope with In and no values',
    { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] } },
  ],
  [
    'a selector scope that takes only Exists',
    {
      hard: { pods: '1' },
      scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['a'] }] },
    },
  ],
];

const HPAS_V2 = '/apis/autoscaling/v2/namespaces/{ns}/horizontalpodautoscalers';
const HPAS_V1 = '/apis/autoscaling/v1/namespaces/{ns}/horizontalpodautoscalers';
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' };
const hpa = (name: string, spec: Record<string, unknown>, version = 'v2') => ({
  apiVersion: `autoscaling/${version}`,
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: { scaleTargetRef: target, maxReplicas: 3, ...spec },
});
const cpu = (t: Record<string, unknown>) => ({ type: 'Resource', resource: { name: 'cpu', target: t } });

const hpaCases: Array<[string, Record<string, unknown>]> = [
  ['a behavior defaulted', { behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }],
  ['a behavior with a tolerance (its gate is off)', { behavior: { scaleUp: { tolerance: '0.05' } } }],
  ['a metric of an unknown type', { metrics: [{ type: 'Weather' }] }],
  ['a metric without its source', { metrics: [{ type: 'Pods' }] }],
  [
    'a metric with two sources',
    {
      metrics: [
        {
          ...cpu({ type: 'Utilization', averageUtilization: 50 }),
          pods: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '1' } },
        },
      ],
    },
  ],
  ['a utilization of 0', { metrics: [cpu({ type: 'Utilization', averageUtilization: 0 })] }],
  ['a target of an unknown type', { metrics: [cpu({ type: 'Most', averageUtilization: 50 })] }],
  ['a resource target with neither value', { metrics: [cpu({ type: 'Utilization' })] }],
  ['a negative average value', { metrics: [cpu({ type: 'AverageValue', averageValue: '-1' })] }],
  [
    'a pods metric without a name',
    { metrics: [{ type: 'Pods', pods: { metric: {}, target: { type: 'AverageValue', averageValue: '1' } } }] },
  ],
  [
    'an external metric with both values',
    {
      metrics: [
        {
          type: 'External',
          external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '1' } },
        },
      ],
    },
  ],
  [
    'an object metric without a described object',
    { metrics: [{ type: 'Object', object: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }] },
  ],
  [
    'a container resource without a container',
    {
      metrics: [
        {
          type: 'ContainerResource',
          containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ],
    },
  ],
  [
    'a scaling policy out of range',
    { behavior: { scaleUp: { policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }] } } },
  ],
  ['an empty policies list', { behavior: { scaleDown: { policies: [] } } }],
  [
    'a stabilization window past an hour',
    { behavior: { scaleUp: { stabilizationWindowSeconds: 3601, selectPolicy: 'Most' } } },
  ],
];

const podTemplate = (name: string, container: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name },
  template: { spec: { containers: [{ name: 'c', image: 'busybox', ...container }] } },
});

const podCases: Array<[string, Record<string, unknown>]> = [
  ['a request above its limit', { resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } }],
  ['a negative limit', { resources: { limits: { memory: '-1Mi' } } }],
  ['a resource that is not a container resource', { resources: { requests: { pods: '1' } } }],
  ['an extended resource request without its limit', { resources: { requests: { 'example.com/gpu': '1' } } }],
  ['an extended resource that is not whole', { resources: { limits: { 'example.com/gpu': '500m' } } }],
  ['huge pages alone', { resources: { limits: { 'hugepages-2Mi': '2Mi' } } }],
  ['an env var without a name', { env: [{ value: 'x' }] }],
  ['an env var name with =', { env: [{ name: 'A=B', value: 'x' }] }],
  ['an env var with an empty valueFrom', { env: [{ name: 'A', valueFrom: {} }] }],
  [
    'an env var with a value and a valueFrom',
    { env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] },
  ],
  [
    'an env var with two sources',
    {
      env: [
        { name: 'A', valueFrom: { configMapKeyRef: { name: 'm', key: 'k' }, secretKeyRef: { name: 's', key: 'k' } } },
      ],
    },
  ],
  ['a configMapKeyRef without a key', { env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'm' } } }] }],
  ['a secretKeyRef with a bad key', { env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'a b' } } }] }],
  ['a fieldRef to an unknown field', { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.nothing' } } }] }],
  [
    'a fieldRef to a field env cannot take',
    { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }] },
  ],
  [
    'a fieldRef to a label with a bad key',
    { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: "metadata.labels['a b']" } } }] },
  ],
  [
    'a fieldRef of another version',
    { env: [{ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } }] },
  ],
  [
    'a resourceFieldRef to an unknown resource',
    { env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.pods' } } }] },
  ],
  [
    'a resourceFieldRef with a cpu divisor of 2',
    { env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } }] },
  ],
  ['an envFrom without a source', { envFrom: [{ prefix: 'P_' }] }],
  ['an envFrom with a bad name', { envFrom: [{ configMapRef: { name: 'Bad_Name' } }] }],
];

export const RESOURCE_SCENARIOS: Scenario[] = [
  ...limitCases.map(
    ([what, limits], i): Scenario => ({
      name: `resources: LimitRange, ${what}`,
      steps: [post(LIMIT_RANGES, limitRange(`lr-${i}`, limits), { select: 'spec' })],
    }),
  ),
  {
    name: 'resources: LimitRange, without a name (its strategy names it with a UUID)',
    steps: [post(LIMIT_RANGES, limitRange('', [{ type: 'Pod', max: { cpu: '1' } }]), { select: 'spec' })],
  },
  ...quotaCases.map(
    ([what, spec], i): Scenario => ({
      name: `resources: ResourceQuota, ${what}`,
      steps: [post(QUOTAS, quota(`q-${i}`, spec), { select: 'spec' })],
    }),
  ),
  ...hpaCases.map(
    ([what, spec], i): Scenario => ({
      name: `resources: HorizontalPodAutoscaler v2, ${what}`,
      steps: [post(HPAS_V2, hpa(`h-${i}`, spec), { select: 'spec' })],
    }),
  ),
  {
    name: 'resources: HorizontalPodAutoscaler v1, a CPU target of 0',
    steps: [post(HPAS_V1, hpa('h-v1', { targetCPUUtilizationPercentage: 0 }, 'v1'))],
  },
  ...podCases.map(
    ([what, container], i): Scenario => ({
      name: `resources: a pod template's container, ${what}`,
      steps: [post(POD_TEMPLATES, podTemplate(`p-${i}`, container), { select: 'template.spec.containers' })],
    }),
  ),
];
