import { del, get, post, put, setup, type Scenario } from '../scenario.js';

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

export const POINTER_SCENARIOS: Scenario[] = [
  {
    name: 'pointers: a ResourceClaim is defaulted to one device of ExactCount',
    steps: [post(CLAIMS, claim({}), { ignore: ['metadata.managedFields'] })],
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
];
