import { HPA_V1_STORAGE } from '../objects/hpa-conversion.js';
import type { ExtraSubresource, ResourceType, StorageConversion } from './types.js';

/**
 * The groups and kinds kube-apiserver 1.34 serves by default beyond the workload core of builtins.ts:
 * certificates, storage (CSI), DRA, flow control, node, apiregistration, the review kinds, autoscaling/v1,
 * and the core resources that are not stored objects (bindings, componentstatuses). test/real/
 * discovery-parity.test.ts compares the whole of discovery with the real server's.
 */
interface Row {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  short?: string[];
  status?: boolean;
  generation?: boolean;
  categories?: string[];
  verbs?: string[];
  subresources?: ExtraSubresource[];
  storage?: StorageConversion;
}

const CREATE_ONLY = ['create'];
const SUB = ['get', 'patch', 'update'];
const EXT = ['api-extensions'];

const rows: Row[] = [
  { group: '', version: 'v1', kind: 'Binding', plural: 'bindings', namespaced: true, verbs: CREATE_ONLY },
  {
    group: '',
    version: 'v1',
    kind: 'ComponentStatus',
    plural: 'componentstatuses',
    namespaced: false,
    short: ['cs'],
    verbs: ['get', 'list'],
  },
  {
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
    short: ['hpa'],
    status: true,
    categories: ['all'],
    storage: HPA_V1_STORAGE,
  },
  {
    group: 'certificates.k8s.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
    plural: 'certificatesigningrequests',
    namespaced: false,
    short: ['csr'],
    status: true,
    subresources: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: SUB }],
  },
  { group: 'storage.k8s.io', version: 'v1', kind: 'CSIDriver', plural: 'csidrivers', namespaced: false },
  { group: 'storage.k8s.io', version: 'v1', kind: 'CSINode', plural: 'csinodes', namespaced: false },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'CSIStorageCapacity',
    plural: 'csistoragecapacities',
    namespaced: true,
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'VolumeAttachment',
    plural: 'volumeattachments',
    namespaced: false,
    status: true,
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'VolumeAttributesClass',
    plural: 'volumeattributesclasses',
    namespaced: false,
    short: ['vac'],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'ServiceCIDR',
    plural: 'servicecidrs',
    namespaced: false,
    status: true,
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'IPAddress',
    plural: 'ipaddresses',
    namespaced: false,
    short: ['ip'],
  },
  {
    group: 'resource.k8s.io',
    version: 'v1',
    kind: 'DeviceClass',
    plural: 'deviceclasses',
    namespaced: false,
    generation: true,
  },
  {
    group: 'resource.k8s.io',
    version: 'v1',
    kind: 'ResourceClaim',
    plural: 'resourceclaims',
    namespaced: true,
    status: true,
  },
  {
    group: 'resource.k8s.io',
    version: 'v1',
    kind: 'ResourceClaimTemplate',
    plural: 'resourceclaimtemplates',
    namespaced: true,
  },
  {
    group: 'resource.k8s.io',
    version: 'v1',
    kind: 'ResourceSlice',
    plural: 'resourceslices',
    namespaced: false,
    generation: true,
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    kind: 'FlowSchema',
    plural: 'flowschemas',
    namespaced: false,
    status: true,
    generation: true,
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    kind: 'PriorityLevelConfiguration',
    plural: 'prioritylevelconfigurations',
    namespaced: false,
    status: true,
    generation: true,
  },
  { group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', plural: 'runtimeclasses', namespaced: false },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    plural: 'apiservices',
    namespaced: false,
    status: true,
    categories: EXT,
  },
  // Answered by the auth gate with auth on, as AlwaysAllow answers in open mode (http/subresources.ts).
  ...review('authentication.k8s.io', ['SelfSubjectReview', 'TokenReview'], []),
  ...review(
    'authorization.k8s.io',
    ['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview'],
    ['LocalSubjectAccessReview'],
  ),
];

function review(group: string, clusterKinds: string[], namespacedKinds: string[]): Row[] {
  const row = (kind: string, namespaced: boolean): Row => ({
    group,
    version: 'v1',
    kind,
    plural: `${kind.toLowerCase()}s`,
    namespaced,
    verbs: CREATE_ONLY,
  });
  return [...clusterKinds.map((k) => row(k, false)), ...namespacedKinds.map((k) => row(k, true))];
}

export const SERVED_GROUP_TYPES: readonly ResourceType[] = rows.map((r) => ({
  group: r.group,
  version: r.version,
  kind: r.kind,
  listKind: `${r.kind}List`,
  plural: r.plural,
  singular: r.kind.toLowerCase(),
  namespaced: r.namespaced,
  shortNames: r.short ?? [],
  categories: r.categories ?? [],
  statusSubresource: r.status ?? false,
  custom: false,
  tracksGeneration: r.generation ?? false,
  ...(r.verbs ? { verbs: r.verbs } : {}),
  ...(r.subresources ? { subresources: r.subresources } : {}),
  ...(r.storage ? { storage: r.storage } : {}),
}));

const POD_SUBRESOURCES: ExtraSubresource[] = [
  { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
  { name: 'binding', kind: 'Binding', verbs: CREATE_ONLY },
  { name: 'eviction', kind: 'Eviction', verbs: CREATE_ONLY, group: 'policy', version: 'v1' },
  { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
  { name: 'log', kind: 'Pod', verbs: ['get'] },
  { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
];

/** What the core rows of builtins.ts serve beyond storage, by `group/version/plural`. */
export const BUILTIN_EXTRAS: Readonly<Record<string, Partial<ResourceType>>> = {
  // kube-apiserver's namespace storage has no DeleteCollection.
  '/v1/namespaces': {
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }],
  },
  // Answered by the auth gate (auth/token-request.ts); in open mode there is no key to sign with.
  '/v1/serviceaccounts': {
    subresources: [
      { name: 'token', kind: 'TokenRequest', verbs: CREATE_ONLY, group: 'authentication.k8s.io', version: 'v1' },
    ],
  },
  '/v1/pods': { subresources: POD_SUBRESOURCES },
};
