// The smallest valid object of every kind the fuzzer covers (without apiVersion, kind and metadata),
// each accepted by kube-apiserver 1.34 as it stands: the starting point every mutation moves away from.
// Written by hand from each kind's upstream ValidateX (pkg/apis/*/validation), since a schema's
// `required` alone does not make an object valid (names that must be IPs, cron schedules, PEM).
import type { JsonObject } from '../../src/apiserver/registry/types.js';
import { CSR_REQUEST_B64 } from '../../test/fixtures/csr-request.js';

/** Where a case puts its object: its id and the fuzz namespace (for objects that point at others). */
export interface SeedContext {
  id: number;
  ns: string;
}

export interface Seed {
  object: (c: SeedContext) => JsonObject;
  /** The object's name when the kind's validation constrains it (default `fz-<id>`). */
  name?: (id: number) => string;
}

const container = (): JsonObject => ({ name: 'c', image: 'busybox' });
const podSpec = (restartPolicy?: string): JsonObject => ({
  containers: [container()],
  ...(restartPolicy ? { restartPolicy } : {}),
});
const template = (restartPolicy?: string): JsonObject => ({
  metadata: { labels: { app: 'a' } },
  spec: podSpec(restartPolicy),
});
const fixed =
  (o: JsonObject): Seed['object'] =>
  () =>
    structuredClone(o);
const matchA = { matchLabels: { app: 'a' } };
const RBAC = 'rbac.authorization.k8s.io';
const rule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
const binding = {
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
  subjects: [{ kind: 'User', apiGroup: RBAC, name: 'fuzz-user' }],
};
const deploymentRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' };
const claimSpec = { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'dc' } }] } };
/** Rules that match no resource any server has, so a fuzzed webhook or policy never acts on a later case. */
const nothingRule = {
  apiGroups: ['fuzz.example.com'],
  apiVersions: ['v1'],
  operations: ['CREATE'],
  resources: ['nothings'],
};
const webhook = (ns: string): JsonObject => ({
  name: 'w.fuzz.example.com',
  clientConfig: { service: { namespace: ns, name: 'wh' } },
  rules: [structuredClone(nothingRule)],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  failurePolicy: 'Ignore',
});
/** By `group/version/Kind`. */
export const SEEDS: Readonly<Record<string, Seed>> = {
  '/v1/Namespace': { object: fixed({}) },
  '/v1/ConfigMap': { object: fixed({ data: { a: 'b' } }) },
  '/v1/Secret': { object: fixed({ type: 'Opaque', data: { a: 'Yg==' } }) },
  '/v1/Service': { object: fixed({ spec: { selector: { app: 'a' }, ports: [{ port: 80, protocol: 'TCP' }] } }) },
  '/v1/ServiceAccount': { object: fixed({}) },
  '/v1/Event': {
    object: ({ ns }) => ({
      involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
      reason: 'Fuzzed',
      message: 'm',
      type: 'Normal',
    }),
  },
  '/v1/Pod': { object: fixed({ spec: podSpec() }) },
  '/v1/Endpoints': { object: fixed({ subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }) },
  '/v1/ReplicationController': {
    object: fixed({ spec: { replicas: 1, selector: { app: 'a' }, template: template() } }),
  },
  '/v1/PodTemplate': { object: fixed({ template: template() }) },
  '/v1/PersistentVolumeClaim': {
    object: fixed({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  },
  '/v1/PersistentVolume': {
    object: fixed({
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/fz' } },
    }),
  },
  '/v1/Node': { object: fixed({ spec: { podCIDR: '10.244.0.0/24' } }) },
  '/v1/LimitRange': { object: fixed({ spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } }) },
  '/v1/ResourceQuota': { object: fixed({ spec: { hard: { pods: '10' } } }) },
  'apps/v1/Deployment': {
    object: fixed({ spec: { replicas: 1, selector: matchA, template: template() } }),
  },
  'apps/v1/StatefulSet': { object: fixed({ spec: { replicas: 1, selector: matchA, template: template() } }) },
  'apps/v1/DaemonSet': { object: fixed({ spec: { selector: matchA, template: template() } }) },
  'apps/v1/ReplicaSet': { object: fixed({ spec: { replicas: 1, selector: matchA, template: template() } }) },
  'apps/v1/ControllerRevision': { object: fixed({ revision: 1, data: {} }) },
  'batch/v1/Job': { object: fixed({ spec: { template: { spec: podSpec('Never') } } }) },
  'batch/v1/CronJob': {
    object: fixed({
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: podSpec('Never') } } } },
    }),
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    object: fixed({ spec: { scaleTargetRef: deploymentRef, maxReplicas: 3 } }),
  },
  'autoscaling/v1/HorizontalPodAutoscaler': {
    object: fixed({ spec: { scaleTargetRef: deploymentRef, maxReplicas: 3 } }),
  },
  'policy/v1/PodDisruptionBudget': { object: fixed({ spec: { minAvailable: 1, selector: matchA } }) },
  'networking.k8s.io/v1/Ingress': {
    object: fixed({ spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } }),
  },
  'networking.k8s.io/v1/NetworkPolicy': { object: fixed({ spec: { podSelector: matchA } }) },
  'networking.k8s.io/v1/IngressClass': { object: fixed({ spec: { controller: 'example.com/ingress' } }) },
  'networking.k8s.io/v1/ServiceCIDR': { object: fixed({ spec: { cidrs: ['10.200.0.0/24'] } }) },
  'networking.k8s.io/v1/IPAddress': {
    // An IPAddress is named by its address in canonical form; 2001:db8::/32 is documentation space.
    name: (id) => `2001:db8::${((id % 0xffff) + 1).toString(16)}`,
    object: ({ ns }) => ({ spec: { parentRef: { group: '', resource: 'services', namespace: ns, name: 's' } } }),
  },
  'discovery.k8s.io/v1/EndpointSlice': {
    object: fixed({ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] }),
  },
  'storage.k8s.io/v1/StorageClass': { object: fixed({ provisioner: 'example.com/fuzz' }) },
  'storage.k8s.io/v1/CSIDriver': { object: fixed({ spec: { attachRequired: true } }) },
  'storage.k8s.io/v1/CSINode': { object: fixed({ spec: { drivers: [{ name: 'example.com', nodeID: 'n' }] } }) },
  'storage.k8s.io/v1/CSIStorageCapacity': { object: fixed({ storageClassName: 'sc' }) },
  'storage.k8s.io/v1/VolumeAttachment': {
    object: fixed({ spec: { attacher: 'example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } } }),
  },
  'storage.k8s.io/v1/VolumeAttributesClass': { object: fixed({ driverName: 'example.com', parameters: { a: 'b' } }) },
  'events.k8s.io/v1/Event': {
    object: ({ ns }) => ({
      eventTime: '2024-01-02T03:04:05.000000Z',
      reportingController: 'example.com/fuzz',
      reportingInstance: 'i',
      action: 'Fuzz',
      reason: 'Fuzzed',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: ns },
    }),
  },
  'coordination.k8s.io/v1/Lease': { object: fixed({ spec: { holderIdentity: 'h', leaseDurationSeconds: 15 } }) },
  'scheduling.k8s.io/v1/PriorityClass': { object: fixed({ value: 1000 }) },
  [`${RBAC}/v1/Role`]: { object: fixed({ rules: [rule] }) },
  [`${RBAC}/v1/RoleBinding`]: { object: fixed(binding) },
  [`${RBAC}/v1/ClusterRole`]: { object: fixed({ rules: [rule] }) },
  [`${RBAC}/v1/ClusterRoleBinding`]: { object: fixed(binding) },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': {
    object: ({ ns }) => ({ webhooks: [{ ...webhook(ns), reinvocationPolicy: 'Never' }] }),
  },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    object: ({ ns }) => ({ webhooks: [webhook(ns)] }),
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': {
    object: fixed({
      spec: { matchConstraints: { resourceRules: [nothingRule] }, validations: [{ expression: 'true' }] },
    }),
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': {
    object: fixed({ spec: { policyName: 'no-such-policy', validationActions: ['Deny'] } }),
  },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    name: (id) => `things.fz${id}.example.com`,
    object: ({ id }) => ({
      spec: {
        group: `fz${id}.example.com`,
        names: { plural: 'things', kind: 'Thing' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    }),
  },
  'certificates.k8s.io/v1/CertificateSigningRequest': {
    object: fixed({
      spec: { request: CSR_REQUEST_B64, signerName: 'example.com/fuzz', usages: ['digital signature'] },
    }),
  },
  'resource.k8s.io/v1/DeviceClass': { object: fixed({ spec: {} }) },
  'resource.k8s.io/v1/ResourceClaim': { object: fixed({ spec: claimSpec }) },
  'resource.k8s.io/v1/ResourceClaimTemplate': { object: fixed({ spec: { spec: claimSpec } }) },
  'resource.k8s.io/v1/ResourceSlice': {
    object: fixed({
      spec: { driver: 'example.com', pool: { name: 'p', generation: 0, resourceSliceCount: 1 }, allNodes: true },
    }),
  },
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': {
    object: fixed({ spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 } }),
  },
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': {
    object: fixed({
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } },
    }),
  },
  'node.k8s.io/v1/RuntimeClass': { object: fixed({ handler: 'runc' }) },
  'apiregistration.k8s.io/v1/APIService': {
    // An APIService is named `<version>.<group>`; its service does not exist, so nothing is ever proxied.
    name: (id) => `v1.fz${id}.example.com`,
    object: ({ id, ns }) => ({
      spec: {
        group: `fz${id}.example.com`,
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        service: { namespace: ns, name: 'fuzz-missing' },
      },
    }),
  },
};
