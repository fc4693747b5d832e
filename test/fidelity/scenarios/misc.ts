import { APPLY_PATCH, get, patch, post, setup, type Scenario } from '../scenario.js';
import { WIDGET_CRD } from '../fixtures.js';

// Creation details that cut across kinds: generateName, dry runs, field managers, namespaces, CRDs.

const CMS = '/api/v1/namespaces/{ns}/configmaps';
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { a: '1' } };
const crd = (plural: string) => {
  const c = structuredClone(WIDGET_CRD);
  const kind = `${plural[0]!.toUpperCase()}${plural.slice(1, -1)}`;
  c.metadata.name = `${plural}.{ns}.fidelity.flowops.io`;
  c.spec.group = '{ns}.fidelity.flowops.io';
  c.spec.names = { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List`, shortNames: [] };
  return c;
};

export const MISC_SCENARIOS: Scenario[] = [
  { name: 'create: generateName', steps: [post(CMS, { ...cm, metadata: { generateName: 'gen-' } })] },
  { name: 'create: dryRun=All answers the object', steps: [post(`${CMS}?dryRun=All`, cm)] },
  { name: 'create: dryRun=All stores nothing', steps: [setup(post(`${CMS}?dryRun=All`, cm)), get(`${CMS}/a`)] },
  { name: 'create: fieldManager given', steps: [post(`${CMS}?fieldManager=my-tool`, cm)] },
  { name: 'create: namespace taken from the path', steps: [post(CMS, cm)] },
  {
    name: 'create: uid and resourceVersion in the body are ignored',
    steps: [
      post(CMS, {
        ...cm,
        metadata: { name: 'a', uid: 'given', resourceVersion: '5', creationTimestamp: '2020-01-01T00:00:00Z' },
      }),
    ],
  },
  {
    name: 'create: managedFields in the body are replaced',
    steps: [
      post(CMS, {
        ...cm,
        metadata: {
          name: 'a',
          managedFields: [
            { manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } },
          ],
        },
      }),
    ],
  },
  { name: 'create: pretty=true', steps: [post(`${CMS}?pretty=true`, cm)] },
  { name: 'namespace: get', steps: [get('/api/v1/namespaces/{ns}')] },
  {
    name: 'namespace: create answer',
    noNamespace: true,
    steps: [post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fid-ns-created' } })],
  },
  { name: 'namespace: list by name', steps: [get('/api/v1/namespaces?fieldSelector=metadata.name%3D{ns}')] },
  {
    name: 'namespace: default exists',
    noNamespace: true,
    steps: [get('/api/v1/namespaces/default', { select: 'status' })],
  },
  {
    name: 'namespace: kubernetes service',
    noNamespace: true,
    steps: [get('/api/v1/namespaces/default/services/kubernetes', { select: 'spec', ignore: ['ports.0.targetPort'] })],
  },
  {
    name: 'CRD: create answer',
    steps: [post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('gadgets'))],
  },
  {
    name: 'CRD: get the fixture spec',
    noNamespace: true,
    steps: [
      get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${WIDGET_CRD.metadata.name}`, { select: 'spec' }),
    ],
  },
  {
    name: 'CRD: fixture status accepted names',
    noNamespace: true,
    steps: [
      get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${WIDGET_CRD.metadata.name}`, {
        select: 'status.acceptedNames',
      }),
    ],
  },
  {
    name: 'CRD: invalid (no versions)',
    steps: [
      post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
        ...crd('gizmos'),
        spec: { ...crd('gizmos').spec, versions: [] },
      }),
    ],
  },
  {
    name: 'CRD: name must match the spec',
    steps: [
      post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
        ...crd('doodads'),
        metadata: { name: 'wrong.{ns}.fidelity.flowops.io' },
      }),
    ],
  },
  {
    name: 'apply: unchanged apply keeps the resourceVersion',
    steps: [
      setup(patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, cm)),
      { ...get(`${CMS}/a`), compare: 'none', capture: { rv: 'metadata.resourceVersion' } },
      patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, cm, { select: 'metadata.managedFields' }),
    ],
  },
  {
    name: 'apply: two managers share a field',
    steps: [
      setup(patch(`${CMS}/a?fieldManager=m1`, APPLY_PATCH, cm)),
      patch(`${CMS}/a?fieldManager=m2`, APPLY_PATCH, cm),
    ],
  },
  {
    name: 'apply: dropping a field removes it',
    steps: [
      setup(patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, { ...cm, data: { a: '1', b: '2' } })),
      patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, cm),
    ],
  },
  {
    name: 'apply: update after apply takes ownership',
    steps: [
      setup(patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, cm)),
      patch(`${CMS}/a?fieldManager=editor`, { 'Content-Type': 'application/merge-patch+json' }, { data: { a: '2' } }),
    ],
  },
  {
    name: 'apply: conflict with an updater',
    steps: [setup(post(CMS, cm)), patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, { ...cm, data: { a: '2' } })],
  },
  {
    name: 'apply: without apiVersion',
    steps: [patch(`${CMS}/a?fieldManager=m`, APPLY_PATCH, { kind: 'ConfigMap', metadata: { name: 'a' } })],
  },
  {
    name: 'apply: YAML body',
    steps: [
      patch(
        `${CMS}/a?fieldManager=m`,
        APPLY_PATCH,
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n',
      ),
    ],
  },
  { name: 'apply: dryRun', steps: [patch(`${CMS}/a?fieldManager=m&dryRun=All`, APPLY_PATCH, cm)] },
];
