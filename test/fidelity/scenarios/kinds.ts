import type { Step } from '../scenario.js';
import { setup } from '../scenario.js';

/** A kind the per-kind scenarios (crud.ts) are generated for. */
export interface KindSpec {
  kind: string;
  apiVersion: string;
  plural: string;
  namespaced: boolean;
  /** The smallest object the real server accepts, without apiVersion/kind/metadata. */
  minimal: Record<string, unknown>;
  /** Steps before each scenario of this kind (objects it needs). */
  prelude?: Step[];
  /** How scenario names call the kind when its name alone is taken (`events.k8s.io/v1 Event`); the kind otherwise. */
  label?: string;
  /** Strategic merge patch is refused (415) for custom resources. */
  custom?: boolean;
}

const podTemplate = (labels: Record<string, string>, restartPolicy?: string) => ({
  metadata: { labels },
  spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'c', image: 'nginx:1.27' }] },
});
const app = { app: 'fid' };

/**
 * Pods need the namespace's `default` ServiceAccount on a real server (the ServiceAccount
 * admission plugin); without token automount, so no projected token volume with a random name.
 */
export const SERVICE_ACCOUNT_PRELUDE: Step[] = [
  setup({
    method: 'POST',
    path: '/api/v1/namespaces/{ns}/serviceaccounts',
    body: {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
      automountServiceAccountToken: false,
    },
  }),
];

export const FIXTURE_GROUP = 'fidelity.flowops.io';

export const KINDS: KindSpec[] = [
  { kind: 'ConfigMap', apiVersion: 'v1', plural: 'configmaps', namespaced: true, minimal: { data: { a: '1' } } },
  { kind: 'Secret', apiVersion: 'v1', plural: 'secrets', namespaced: true, minimal: { stringData: { a: 'b' } } },
  {
    kind: 'Service',
    apiVersion: 'v1',
    plural: 'services',
    namespaced: true,
    minimal: { spec: { selector: app, ports: [{ port: 80 }] } },
  },
  { kind: 'ServiceAccount', apiVersion: 'v1', plural: 'serviceaccounts', namespaced: true, minimal: {} },
  {
    kind: 'Event',
    apiVersion: 'v1',
    plural: 'events',
    namespaced: true,
    minimal: {
      involvedObject: { kind: 'Pod', name: 'p', namespace: '{ns}' },
      reason: 'Tested',
      message: 'a test',
      type: 'Normal',
    },
  },
  {
    kind: 'Pod',
    apiVersion: 'v1',
    plural: 'pods',
    namespaced: true,
    minimal: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    prelude: SERVICE_ACCOUNT_PRELUDE,
  },
  {
    kind: 'Endpoints',
    apiVersion: 'v1',
    plural: 'endpoints',
    namespaced: true,
    minimal: { subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] },
  },
  {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    minimal: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  },
  {
    kind: 'PersistentVolume',
    apiVersion: 'v1',
    plural: 'persistentvolumes',
    namespaced: false,
    minimal: { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/fid' } } },
  },
  { kind: 'Node', apiVersion: 'v1', plural: 'nodes', namespaced: false, minimal: {} },
  {
    kind: 'LimitRange',
    apiVersion: 'v1',
    plural: 'limitranges',
    namespaced: true,
    minimal: { spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] } },
  },
  {
    kind: 'ResourceQuota',
    apiVersion: 'v1',
    plural: 'resourcequotas',
    namespaced: true,
    minimal: { spec: { hard: { pods: '10' } } },
  },
  {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    plural: 'deployments',
    namespaced: true,
    minimal: { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
  },
  {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    plural: 'statefulsets',
    namespaced: true,
    minimal: { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
  },
  {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    plural: 'daemonsets',
    namespaced: true,
    minimal: { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
  },
  {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    plural: 'replicasets',
    namespaced: true,
    minimal: { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
  },
  {
    kind: 'ControllerRevision',
    apiVersion: 'apps/v1',
    plural: 'controllerrevisions',
    namespaced: true,
    minimal: { revision: 1, data: { spec: { x: 1 } } },
  },
  {
    kind: 'Job',
    apiVersion: 'batch/v1',
    plural: 'jobs',
    namespaced: true,
    minimal: { spec: { template: podTemplate({}, 'Never') } },
  },
  {
    kind: 'CronJob',
    apiVersion: 'batch/v1',
    plural: 'cronjobs',
    namespaced: true,
    minimal: { spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate({}, 'OnFailure') } } } },
  },
  {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
    minimal: { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 } },
  },
  {
    kind: 'PodDisruptionBudget',
    apiVersion: 'policy/v1',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    minimal: { spec: { minAvailable: 1, selector: { matchLabels: app } } },
  },
  {
    kind: 'Ingress',
    apiVersion: 'networking.k8s.io/v1',
    plural: 'ingresses',
    namespaced: true,
    minimal: { spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
  },
  {
    kind: 'NetworkPolicy',
    apiVersion: 'networking.k8s.io/v1',
    plural: 'networkpolicies',
    namespaced: true,
    minimal: { spec: { podSelector: {} } },
  },
  {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    plural: 'leases',
    namespaced: true,
    minimal: { spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } },
  },
  {
    kind: 'PriorityClass',
    apiVersion: 'scheduling.k8s.io/v1',
    plural: 'priorityclasses',
    namespaced: false,
    minimal: { value: 1000 },
  },
  {
    kind: 'Role',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    plural: 'roles',
    namespaced: true,
    minimal: { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
  },
  {
    kind: 'RoleBinding',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    plural: 'rolebindings',
    namespaced: true,
    minimal: {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: '{ns}' }],
    },
  },
  {
    kind: 'ClusterRole',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    plural: 'clusterroles',
    namespaced: false,
    minimal: { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
  },
  {
    kind: 'ClusterRoleBinding',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    plural: 'clusterrolebindings',
    namespaced: false,
    minimal: {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'fid', apiGroup: 'rbac.authorization.k8s.io' }],
    },
  },
  {
    kind: 'Widget',
    apiVersion: `${FIXTURE_GROUP}/v1`,
    plural: 'widgets',
    namespaced: true,
    minimal: { spec: { replicas: 1 } },
    custom: true,
  },
];

/** The collection path of a kind (`{ns}` for the scenario's namespace). */
export function collectionPath(k: KindSpec): string {
  const [group, version] = k.apiVersion.includes('/') ? k.apiVersion.split('/') : ['', k.apiVersion];
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return k.namespaced ? `${base}/namespaces/{ns}/${k.plural}` : `${base}/${k.plural}`;
}

/** Object names: cluster-scoped ones carry the scenario's namespace so scenarios stay apart. */
export function objectName(k: KindSpec, base: string): string {
  return k.namespaced ? base : `{ns}-${base}`;
}

export function object(
  k: KindSpec,
  name: string,
  more: { labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): Record<string, unknown> {
  const labels = { fidelity: '{ns}', ...more.labels };
  return {
    apiVersion: k.apiVersion,
    kind: k.kind,
    metadata: { name: objectName(k, name), labels, ...(more.annotations ? { annotations: more.annotations } : {}) },
    ...k.minimal,
  };
}
