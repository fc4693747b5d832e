import { AS_TABLE, MERGE_PATCH, del, get, patch, post, setup, type Scenario, type Step } from '../scenario.js';
import { SERVICE_ACCOUNT_PRELUDE } from './kinds.js';

// Reading many objects: label and field selectors, pagination, table output, and watches that
// start at a resourceVersion or with the initial events.

const CMS = '/api/v1/namespaces/{ns}/configmaps';
const cm = (name: string, labels: Record<string, string>): Step =>
  setup(post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { n: name } }));
/** Five ConfigMaps: tier front/back, env a/b, and one without labels. */
const FIVE: Step[] = [
  cm('c1', { tier: 'front', env: 'a' }),
  cm('c2', { tier: 'front', env: 'b' }),
  cm('c3', { tier: 'back', env: 'a' }),
  cm('c4', { tier: 'back' }),
  cm('c5', {}),
];
/**
 * kube-apiserver answers resourceVersion=0 lists and watches without a resourceVersion from its watch
 * cache, which may not have seen the last write yet (a CI run once missed c5). A NotOlderThan list at
 * the last object's resourceVersion blocks until the cache has caught up, so the read after it is
 * deterministic on both servers.
 */
const cacheHasSeen = (name: string): Step[] => [
  { ...get(`${CMS}/${name}`), compare: 'none', capture: { seen: 'metadata.resourceVersion' } },
  { ...get(`${CMS}?resourceVersion=\${seen}&resourceVersionMatch=NotOlderThan`), compare: 'none' },
];
const FIVE_SEEN: Step[] = [...FIVE, ...cacheHasSeen('c5')];
const pod = (name: string, extra: Record<string, unknown> = {}): Step =>
  setup(
    post('/api/v1/namespaces/{ns}/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
    }),
  );

const labelSelectors: [string, string][] = [
  ['equality', 'tier%3Dfront'],
  ['double equals', 'tier%3D%3Dback'],
  ['inequality', 'tier!%3Dfront'],
  ['set in', 'env%20in%20(a,b)'],
  ['set notin', 'env%20notin%20(a)'],
  ['exists', 'env'],
  ['does not exist', '!env'],
  ['conjunction', 'tier%3Dfront,env%3Db'],
  ['matches nothing', 'tier%3Dmiddle'],
  ['empty value', 'tier%3D'],
];
const fieldSelectors: [string, string][] = [
  ['metadata.name', 'metadata.name%3Dc2'],
  ['metadata.name inequality', 'metadata.name!%3Dc2'],
  ['metadata.namespace', 'metadata.namespace%3D{ns}'],
  ['two fields', 'metadata.name!%3Dc1,metadata.name!%3Dc2'],
];

/** `env in (v0,…,v4999,a)`: about 40 KB of URL that selects two of the five. */
const LONG_IN = `env%20in%20(${Array.from({ length: 5000 }, (_, i) => `v${i}`).join(',')},a)`;

export const QUERY_SCENARIOS: Scenario[] = [
  // Past Node's 16 KiB of request line and headers, within Go's 1 MiB: read and answered with a Status.
  { name: 'label selector: 400 a 16 KB key', steps: [get(`${CMS}?labelSelector=${'a'.repeat(16 * 1024)}`)] },
  { name: 'label selector: 400 a 200 KB key', steps: [get(`${CMS}?labelSelector=${'a'.repeat(200 * 1024)}`)] },
  { name: 'label selector: a 40 KB valid selector', steps: [...FIVE, get(`${CMS}?labelSelector=${LONG_IN}`)] },
  ...labelSelectors.map(
    ([what, sel]): Scenario => ({
      name: `label selector: ${what}`,
      steps: [...FIVE, get(`${CMS}?labelSelector=${sel}`)],
    }),
  ),
  ...fieldSelectors.map(
    ([what, sel]): Scenario => ({
      name: `field selector: ${what}`,
      steps: [...FIVE, get(`${CMS}?fieldSelector=${sel}`)],
    }),
  ),
  {
    name: 'field selector: label and field together',
    steps: [...FIVE, get(`${CMS}?labelSelector=tier%3Dfront&fieldSelector=metadata.name%3Dc1`)],
  },
  {
    name: 'field selector: secret type',
    steps: [
      setup(
        post('/api/v1/namespaces/{ns}/secrets', {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's1' },
          type: 'Opaque',
        }),
      ),
      setup(
        post('/api/v1/namespaces/{ns}/secrets', {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's2' },
          type: 'example.com/x',
        }),
      ),
      get('/api/v1/namespaces/{ns}/secrets?fieldSelector=type%3Dexample.com%2Fx'),
    ],
  },
  {
    name: 'field selector: pod status.phase',
    steps: [
      ...SERVICE_ACCOUNT_PRELUDE,
      pod('p1'),
      get('/api/v1/namespaces/{ns}/pods?fieldSelector=status.phase%3DPending'),
    ],
  },
  {
    name: 'field selector: pod spec.nodeName',
    steps: [
      ...SERVICE_ACCOUNT_PRELUDE,
      pod('p1'),
      pod('p2', { nodeName: 'n1' }),
      get('/api/v1/namespaces/{ns}/pods?fieldSelector=spec.nodeName%3Dn1'),
    ],
  },
  {
    name: 'field selector: pod unsupported field',
    steps: [get('/api/v1/namespaces/{ns}/pods?fieldSelector=spec.hostname%3Dx')],
  },
  {
    name: 'field selector: event involvedObject.name',
    steps: [
      setup(
        post('/api/v1/namespaces/{ns}/events', {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'e1' },
          involvedObject: { kind: 'Pod', name: 'p', namespace: '{ns}' },
          reason: 'R',
          message: 'm',
          type: 'Normal',
        }),
      ),
      get('/api/v1/namespaces/{ns}/events?fieldSelector=involvedObject.name%3Dp'),
    ],
  },
  {
    name: 'field selector: across namespaces',
    steps: [...FIVE, get('/api/v1/configmaps?fieldSelector=metadata.namespace%3D{ns}')],
  },
  { name: 'pagination: first page', steps: [...FIVE, get(`${CMS}?limit=2`)] },
  {
    name: 'pagination: second page',
    steps: [
      ...FIVE,
      { ...get(`${CMS}?limit=2`), compare: 'none', capture: { c: 'metadata.continue' } },
      get(`${CMS}?limit=2&continue=\${c}`),
    ],
  },
  {
    name: 'pagination: last page',
    steps: [
      ...FIVE,
      { ...get(`${CMS}?limit=3`), compare: 'none', capture: { c: 'metadata.continue' } },
      get(`${CMS}?limit=3&continue=\${c}`),
    ],
  },
  { name: 'pagination: limit larger than the list', steps: [...FIVE, get(`${CMS}?limit=50`)] },
  { name: 'pagination: limit with a label selector', steps: [...FIVE, get(`${CMS}?limit=1&labelSelector=tier`)] },
  {
    name: 'pagination: across namespaces with a selector',
    steps: [...FIVE, get('/api/v1/configmaps?limit=2&fieldSelector=metadata.namespace%3D{ns}')],
  },
  { name: 'pagination: limit=0 means all', steps: [...FIVE, get(`${CMS}?limit=0`)] },
  {
    name: 'pagination: resourceVersion=0 ignores limit',
    steps: [...FIVE_SEEN, get(`${CMS}?limit=2&resourceVersion=0`)],
  },
  { name: 'table: configmaps', steps: [...FIVE, get(CMS, { headers: AS_TABLE })] },
  { name: 'table: single object', steps: [...FIVE, get(`${CMS}/c1`, { headers: AS_TABLE })] },
  { name: 'table: includeObject=None', steps: [...FIVE, get(`${CMS}?includeObject=None`, { headers: AS_TABLE })] },
  { name: 'table: includeObject=Object', steps: [...FIVE, get(`${CMS}?includeObject=Object`, { headers: AS_TABLE })] },
  { name: 'table: paginated', steps: [...FIVE, get(`${CMS}?limit=2`, { headers: AS_TABLE })] },
  {
    name: 'table: with a label selector',
    steps: [...FIVE, get(`${CMS}?labelSelector=tier%3Dback`, { headers: AS_TABLE })],
  },
  {
    name: 'table: pods',
    steps: [...SERVICE_ACCOUNT_PRELUDE, pod('p1'), get('/api/v1/namespaces/{ns}/pods', { headers: AS_TABLE })],
  },
  {
    name: 'table: namespaces',
    steps: [get('/api/v1/namespaces?fieldSelector=metadata.name%3D{ns}', { headers: AS_TABLE })],
  },
  {
    name: 'table: Accept with a JSON fallback',
    steps: [
      ...FIVE,
      get(CMS, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } }),
    ],
  },
  {
    name: 'table: custom resource with printer columns',
    steps: [
      setup(
        post('/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets', {
          apiVersion: 'fidelity.flowops.io/v1',
          kind: 'Widget',
          metadata: { name: 'w' },
          spec: { replicas: 3 },
        }),
      ),
      get('/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets/w', { headers: AS_TABLE }),
    ],
  },
  {
    name: 'metadata only: PartialObjectMetadataList',
    steps: [
      ...FIVE,
      get(`${CMS}?labelSelector=tier`, {
        headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' },
      }),
    ],
  },
  {
    name: 'metadata only: PartialObjectMetadata',
    steps: [
      ...FIVE,
      get(`${CMS}/c1`, { headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } }),
    ],
  },
  {
    name: 'watch: from a resourceVersion',
    steps: [
      cm('w0', {}),
      { ...get(`${CMS}/w0`), compare: 'none', capture: { rv: 'metadata.resourceVersion' } },
      setup(patch(`${CMS}/w0`, MERGE_PATCH, { data: { n: 'changed' } })),
      setup(del(`${CMS}/w0`)),
      get(`${CMS}?watch=true&resourceVersion=\${rv}`, { watchEvents: 2 }),
    ],
  },
  {
    name: 'watch: one object by name',
    steps: [
      cm('w1', {}),
      cm('w2', {}),
      ...cacheHasSeen('w2'),
      get(`${CMS}?watch=true&fieldSelector=metadata.name%3Dw2`, { watchEvents: 1 }),
    ],
  },
  {
    name: 'watch: label selector',
    steps: [...FIVE_SEEN, get(`${CMS}?watch=true&labelSelector=tier%3Dback`, { watchEvents: 2 })],
  },
  {
    name: 'watch: watch=1 is true',
    steps: [cm('w1', {}), ...cacheHasSeen('w1'), get(`${CMS}?watch=1`, { watchEvents: 1 })],
  },
  {
    name: 'watch: initial events with a bookmark',
    steps: [
      cm('w1', {}),
      ...cacheHasSeen('w1'),
      get(`${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, {
        watchEvents: 2,
        ignore: ['1.object.metadata.annotations'],
      }),
    ],
  },
  {
    name: 'watch: initial events end annotation',
    steps: [
      cm('w1', {}),
      ...cacheHasSeen('w1'),
      get(`${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, {
        watchEvents: 2,
        select: '1.object.metadata.annotations',
      }),
    ],
  },
  {
    name: 'watch: sendInitialEvents without resourceVersionMatch',
    steps: [get(`${CMS}?watch=true&sendInitialEvents=true`)],
  },
  { name: 'watch: timeoutSeconds ends an empty watch', steps: [get(`${CMS}?watch=true&timeoutSeconds=1`)] },
  {
    name: 'watch: custom resources',
    steps: [
      setup(
        post('/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets', {
          apiVersion: 'fidelity.flowops.io/v1',
          kind: 'Widget',
          metadata: { name: 'w' },
          spec: { replicas: 3 },
        }),
      ),
      get('/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets?watch=true', { watchEvents: 1 }),
    ],
  },
  {
    name: 'watch: a single object path with watch=true',
    steps: [
      cm('w1', {}),
      ...cacheHasSeen('w1'),
      get(`${CMS}?watch=true&fieldSelector=metadata.name%3Dw1&resourceVersion=0`, { watchEvents: 1 }),
    ],
  },
  {
    name: 'list: resourceVersionMatch=NotOlderThan',
    steps: [...FIVE_SEEN, get(`${CMS}?resourceVersion=0&resourceVersionMatch=NotOlderThan`)],
  },
  {
    name: 'list: resourceVersionMatch without resourceVersion',
    steps: [get(`${CMS}?resourceVersionMatch=NotOlderThan`)],
  },
  {
    name: 'list: across namespaces',
    steps: [...FIVE, get('/api/v1/configmaps?labelSelector=tier%3Dfront&fieldSelector=metadata.namespace%3D{ns}')],
  },
  { name: 'list: empty namespace', steps: [get('/apis/apps/v1/namespaces/{ns}/deployments')] },
];
