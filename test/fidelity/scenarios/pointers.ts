import { del, get, post, put, serviceAccountStep, setup, type Scenario } from '../scenario.js';

// What the fuzzer found about optional struct fields (Go pointers): one that appears, even empty, is a
// change of an immutable spec; and a ResourceClaim's defaults and admin access (AuthorizedForAdmin).

const CLAIMS = '/apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaims';
const TEMPLATES = '/apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaimtemplates';
const CAPACITIES = '/apis/storage.k8s.io/v1/namespaces/{ns}/csistoragecapacities';
const ATTACHMENTS = '/apis/storage.k8s.io/v1/volumeattachments';

const claim = (exactly: Record<string, unknown>) => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name: 'c' },
  spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'dc', ...exactly } }] } },
});
const capacity = (more: Record<string, unknown>) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIStorageCapacity',
  metadata: { name: 'cap' },
  storageClassName: 'sc',
  ...more,
});
const attachment = (source: Record<string, unknown>) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttachment',
  metadata: { name: '{ns}-va' },
  spec: { attacher: 'csi.example.com', nodeName: 'n', source },
});

const pod = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { serviceAccountName: 'sa', containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const replicaSet = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'rs' },
  spec: {
    selector: { matchLabels: { app: 'rs' } },
    template: { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    ...spec,
  },
});

export const POINTER_SCENARIOS: Scenario[] = [
  {
    name: 'pointers: a ResourceClaim is defaulted to one device of ExactCount',
    steps: [post(CLAIMS, claim({}), { ignore: ['metadata.managedFields'] })],
  },
  {
    name: "pointers: a ResourceClaim's request capacity is dropped (DRAConsumableCapacity is off)",
    steps: [post(CLAIMS, claim({ capacity: { requests: { memory: '1Gi' } } }), { select: 'spec' })],
  },
  {
    name: 'pointers: a ResourceClaim with admin access in a namespace without the label',
    steps: [post(CLAIMS, claim({ adminAccess: true }))],
  },
  {
    name: 'pointers: a ResourceClaimTemplate with admin access in a namespace without the label',
    steps: [
      post(TEMPLATES, {
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaimTemplate',
        metadata: { name: 't' },
        spec: { spec: claim({ adminAccess: true }).spec },
      }),
    ],
  },
  {
    name: "pointers: a ResourceClaim's update that sets the default count is no change",
    steps: [
      setup(post(CLAIMS, claim({}), { capture: { rv: 'metadata.resourceVersion' } })),
      put(
        `${CLAIMS}/c`,
        { ...claim({ count: 1 }), metadata: { name: 'c', resourceVersion: '${rv}' } },
        { select: 'spec' },
      ),
    ],
  },
  {
    name: "pointers: a ResourceClaim's update that sets adminAccess false is a change",
    steps: [
      setup(post(CLAIMS, claim({}), { capture: { rv: 'metadata.resourceVersion' } })),
      put(
        `${CLAIMS}/c`,
        { ...claim({ adminAccess: false }), metadata: { name: 'c', resourceVersion: '${rv}' } },
        { compare: 'status' },
      ),
    ],
  },
  {
    name: "pointers: a CSIStorageCapacity's empty nodeTopology given on update",
    steps: [
      setup(post(CAPACITIES, capacity({}), { capture: { rv: 'metadata.resourceVersion' } })),
      put(`${CAPACITIES}/cap`, {
        ...capacity({ nodeTopology: {} }),
        metadata: { name: 'cap', resourceVersion: '${rv}' },
      }),
    ],
  },
  {
    name: "pointers: a VolumeAttachment's empty inlineVolumeSpec given on update",
    noNamespace: true,
    steps: [
      setup(post(ATTACHMENTS, attachment({ persistentVolumeName: 'pv' }))),
      setup(get(`${ATTACHMENTS}/{ns}-va`, { capture: { rv: 'metadata.resourceVersion' } })),
      put(
        `${ATTACHMENTS}/{ns}-va`,
        {
          ...attachment({ persistentVolumeName: 'pv', inlineVolumeSpec: {} }),
          metadata: { name: '{ns}-va', resourceVersion: '${rv}' },
        },
        { compare: 'status' },
      ),
      setup(del(`${ATTACHMENTS}/{ns}-va`)),
    ],
  },
  {
    name: "pointers: a Pod's update that adds an empty affinity",
    steps: [
      serviceAccountStep(),
      setup(post('/api/v1/namespaces/{ns}/pods', pod({}), { capture: { rv: 'metadata.resourceVersion' } })),
      // Refused on both; kube-apiserver's text ends with a cmp.Diff of the two specs, so the status is compared.
      put(
        '/api/v1/namespaces/{ns}/pods/p',
        { ...pod({ affinity: {} }), metadata: { name: 'p', resourceVersion: '${rv}' } },
        { compare: 'status' },
      ),
    ],
  },
  ...(
    [
      ['a hostPath without a path', { hostPath: {} }],
      ['a hostPath with .. in its path', { hostPath: { path: '/a/../b' } }],
      ['a hostPath of an unknown type', { hostPath: { path: '/a', type: 'Pipe' } }],
      ['a recycled hostPath of /', { hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' }],
    ] as Array<[string, Record<string, unknown>]>
  ).map(
    ([what, source], i): Scenario => ({
      name: `pointers: a PersistentVolume with ${what}`,
      noNamespace: true,
      steps: [
        post(
          '/api/v1/persistentvolumes',
          {
            apiVersion: 'v1',
            kind: 'PersistentVolume',
            metadata: { name: `{ns}-pv-${i}` },
            spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...source },
          },
          { select: 'spec' },
        ),
        setup(del(`/api/v1/persistentvolumes/{ns}-pv-${i}`)),
      ],
    }),
  ),
  {
    name: "pointers: a ReplicaSet's status with more fully labeled than replicas, and a negative minReadySeconds",
    steps: [
      post('/apis/apps/v1/namespaces/{ns}/replicasets', replicaSet({ minReadySeconds: -1 })),
      setup(
        post('/apis/apps/v1/namespaces/{ns}/replicasets', replicaSet({}), {
          capture: { rv: 'metadata.resourceVersion' },
        }),
      ),
      put('/apis/apps/v1/namespaces/{ns}/replicasets/rs/status', {
        ...replicaSet({}),
        metadata: { name: 'rs', resourceVersion: '${rv}' },
        status: { replicas: 1, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1 },
      }),
    ],
  },
];
