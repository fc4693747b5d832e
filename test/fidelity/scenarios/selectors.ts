import { post, type Scenario } from '../scenario.js';
import { SERVICE_ACCOUNT_PRELUDE } from './kinds.js';

// Objects whose label selector kube-apiserver refuses (422): every built-in kind with a
// LabelSelector the embedded server serves, each with an operator no selector knows, and a few
// neighbours (an empty In, values on Exists, a bad key and value, an empty selector).

const BAD_EXPR = { matchExpressions: [{ key: 'app', operator: 'Sometimes', values: ['x'] }] };
const app = { app: 'fid' };
const template = (restartPolicy?: string) => ({
  metadata: { labels: app },
  spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'c', image: 'nginx:1.27' }] },
});
const workload = (kind: string, selector: unknown) => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name: 'w' },
  spec: { selector, template: template() },
});
const apps = (plural: string) => `/apis/apps/v1/namespaces/{ns}/${plural}`;

const WORKLOADS: Array<[kind: string, plural: string]> = [
  ['Deployment', 'deployments'],
  ['ReplicaSet', 'replicasets'],
  ['StatefulSet', 'statefulsets'],
  ['DaemonSet', 'daemonsets'],
];

const NEIGHBOURS: Array<[what: string, selector: unknown]> = [
  ['In without values', { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }],
  ['Exists with values', { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['fid'] }] }],
  [
    'bad key and value',
    {
      matchLabels: { 'bad key': 'fid' },
      matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['not valid!'] }],
    },
  ],
  ['empty selector', {}],
];

const affinity = {
  podAntiAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      { topologyKey: 'kubernetes.io/hostname', labelSelector: BAD_EXPR },
    ],
    preferredDuringSchedulingIgnoredDuringExecution: [
      { weight: 10, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', namespaceSelector: BAD_EXPR } },
    ],
  },
};
const spread = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: BAD_EXPR }];
const podSpec = { affinity, topologySpreadConstraints: spread, containers: [{ name: 'c', image: 'nginx:1.27' }] };

export const SELECTOR_SCENARIOS: Scenario[] = [
  {
    name: 'selector: 422 Pod affinity terms',
    steps: [
      ...SERVICE_ACCOUNT_PRELUDE,
      post('/api/v1/namespaces/{ns}/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: podSpec }),
    ],
  },
  {
    name: 'selector: 422 Deployment template affinity terms',
    steps: [
      post(apps('deployments'), {
        ...workload('Deployment', { matchLabels: app }),
        spec: { selector: { matchLabels: app }, template: { metadata: { labels: app }, spec: podSpec } },
      }),
    ],
  },
  ...WORKLOADS.map(([kind, plural]) => ({
    name: `selector: 422 ${kind} operator Sometimes`,
    steps: [post(apps(plural), workload(kind, BAD_EXPR))],
  })),
  ...NEIGHBOURS.map(([what, sel]) => ({
    name: `selector: 422 Deployment ${what}`,
    steps: [post(apps('deployments'), workload('Deployment', sel))],
  })),
  ...NEIGHBOURS.slice(0, 1).map(([what, sel]) => ({
    name: `selector: 422 DaemonSet ${what}`,
    steps: [post(apps('daemonsets'), workload('DaemonSet', sel))],
  })),
  {
    name: 'selector: 422 Job operator Sometimes',
    steps: [
      post('/apis/batch/v1/namespaces/{ns}/jobs', {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: { manualSelector: true, selector: BAD_EXPR, template: template('Never') },
      }),
    ],
  },
  {
    name: 'selector: 422 CronJob jobTemplate with a selector',
    steps: [
      post('/apis/batch/v1/namespaces/{ns}/cronjobs', {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'c' },
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: { spec: { selector: BAD_EXPR, template: template('OnFailure') } },
        },
      }),
    ],
  },
  {
    name: 'selector: 422 PodDisruptionBudget operator Sometimes',
    steps: [
      post('/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets', {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'p' },
        spec: { minAvailable: 1, selector: BAD_EXPR },
      }),
    ],
  },
  {
    name: 'selector: 422 NetworkPolicy selectors',
    steps: [
      post('/apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'n' },
        spec: {
          podSelector: BAD_EXPR,
          ingress: [{ from: [{ namespaceSelector: BAD_EXPR }, {}] }],
          egress: [{ to: [{ podSelector: { matchLabels: { 'bad key': 'x' } } }] }],
        },
      }),
    ],
  },
  {
    name: 'selector: 422 PersistentVolumeClaim operator Sometimes',
    steps: [
      post('/api/v1/namespaces/{ns}/persistentvolumeclaims', {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'c' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, selector: BAD_EXPR },
      }),
    ],
  },
  {
    name: 'selector: 422 ClusterRole aggregationRule operator Sometimes',
    steps: [
      post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: '{ns}-agg' },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'fid/agg': 'x' } }, BAD_EXPR] },
      }),
    ],
  },
  {
    name: 'selector: 422 ClusterRole aggregationRule without selectors',
    steps: [
      post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: '{ns}-agg' },
        aggregationRule: { clusterRoleSelectors: [] },
      }),
    ],
  },
];
