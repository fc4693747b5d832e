import { EVENTS_V1_STORAGE } from '../objects/event-conversion.js';
import { BUILTIN_EXTRAS, SERVED_GROUP_TYPES } from './builtin-groups.js';
import type { ResourceType, StorageConversion } from './types.js';

type Builtin = [group: string, version: string, kind: string, plural: string, namespaced: boolean, opts?: BuiltinOpts];
interface BuiltinOpts {
  short?: string[];
  status?: boolean;
  generation?: boolean;
  categories?: string[];
  storage?: StorageConversion;
}

const ALL = ['all'];
const WORKLOAD: BuiltinOpts = { status: true, generation: true, categories: ALL };

// The kinds the embedded server serves without a CRD. Short names and categories follow kube-apiserver.
const TABLE: Builtin[] = [
  ['', 'v1', 'Namespace', 'namespaces', false, { short: ['ns'], status: true }],
  ['', 'v1', 'ConfigMap', 'configmaps', true, { short: ['cm'] }],
  ['', 'v1', 'Secret', 'secrets', true],
  ['', 'v1', 'Service', 'services', true, { short: ['svc'], status: true, categories: ALL }],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', true, { short: ['sa'] }],
  ['', 'v1', 'Event', 'events', true, { short: ['ev'] }],
  // Pods track their generation since 1.34 (PodObservedGenerationTracking, on by default).
  ['', 'v1', 'Pod', 'pods', true, { short: ['po'], status: true, categories: ALL, generation: true }],
  ['', 'v1', 'Endpoints', 'endpoints', true, { short: ['ep'] }],
  [
    '',
    'v1',
    'ReplicationController',
    'replicationcontrollers',
    true,
    { short: ['rc'], status: true, generation: true, categories: ALL },
  ],
  ['', 'v1', 'PodTemplate', 'podtemplates', true, { generation: true }],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, { short: ['pvc'], status: true }],
  ['', 'v1', 'PersistentVolume', 'persistentvolumes', false, { short: ['pv'], status: true }],
  ['', 'v1', 'Node', 'nodes', false, { short: ['no'], status: true }],
  ['', 'v1', 'LimitRange', 'limitranges', true, { short: ['limits'] }],
  ['', 'v1', 'ResourceQuota', 'resourcequotas', true, { short: ['quota'], status: true }],
  ['apps', 'v1', 'Deployment', 'deployments', true, { ...WORKLOAD, short: ['deploy'] }],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', true, { ...WORKLOAD, short: ['sts'] }],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', true, { ...WORKLOAD, short: ['ds'] }],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', true, { ...WORKLOAD, short: ['rs'] }],
  ['apps', 'v1', 'ControllerRevision', 'controllerrevisions', true],
  ['batch', 'v1', 'Job', 'jobs', true, { ...WORKLOAD }],
  ['batch', 'v1', 'CronJob', 'cronjobs', true, { ...WORKLOAD, short: ['cj'] }],
  [
    'autoscaling',
    'v2',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    true,
    { short: ['hpa'], status: true, categories: ALL },
  ],
  [
    'policy',
    'v1',
    'PodDisruptionBudget',
    'poddisruptionbudgets',
    true,
    { short: ['pdb'], status: true, generation: true },
  ],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, { short: ['ing'], status: true, generation: true }],
  ['networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, { short: ['netpol'], generation: true }],
  ['networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false, { generation: true }],
  ['discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true, { generation: true }],
  ['storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false, { short: ['sc'] }],
  ['events.k8s.io', 'v1', 'Event', 'events', true, { short: ['ev'], storage: EVENTS_V1_STORAGE }],
  ['coordination.k8s.io', 'v1', 'Lease', 'leases', true],
  ['scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', false, { short: ['pc'], generation: true }],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false],
  // Admission configuration: called on writes by src/apiserver/admission/.
  [
    'admissionregistration.k8s.io',
    'v1',
    'MutatingWebhookConfiguration',
    'mutatingwebhookconfigurations',
    false,
    { generation: true, categories: ['api-extensions'] },
  ],
  [
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingWebhookConfiguration',
    'validatingwebhookconfigurations',
    false,
    { generation: true, categories: ['api-extensions'] },
  ],
  [
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingAdmissionPolicy',
    'validatingadmissionpolicies',
    false,
    { status: true, generation: true, categories: ['api-extensions'] },
  ],
  [
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingAdmissionPolicyBinding',
    'validatingadmissionpolicybindings',
    false,
    { generation: true, categories: ['api-extensions'] },
  ],
  [
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    'customresourcedefinitions',
    false,
    { short: ['crd', 'crds'], status: true, generation: true, categories: ['api-extensions'] },
  ],
];

const CORE_TYPES: readonly ResourceType[] = TABLE.map(([group, version, kind, plural, namespaced, o = {}]) => ({
  group,
  version,
  kind,
  listKind: `${kind}List`,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  shortNames: o.short ?? [],
  categories: o.categories ?? [],
  statusSubresource: o.status ?? false,
  custom: false,
  tracksGeneration: o.generation ?? false,
  ...(o.storage ? { storage: o.storage } : {}),
}));

export const BUILTIN_TYPES: readonly ResourceType[] = [
  ...CORE_TYPES.map((t) => ({ ...t, ...BUILTIN_EXTRAS[`${t.group}/${t.version}/${t.plural}`] })),
  ...SERVED_GROUP_TYPES,
];
