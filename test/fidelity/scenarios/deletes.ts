import { del, get, post, setup, type Scenario, type Step } from '../scenario.js';

// DELETE with options: propagation policies, preconditions, dry runs, grace periods, collections.

const CMS = '/api/v1/namespaces/{ns}/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/{ns}/deployments';
const cm = (name: string, labels: Record<string, string> = {}): Step =>
  setup(post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: '1' } }));
const deploy = setup(
  post(DEPLOYS, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  }),
);
const options = (o: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'DeleteOptions', ...o });
const captureUid: Step = {
  ...get(`${CMS}/a`),
  compare: 'none',
  capture: { uid: 'metadata.uid', rv: 'metadata.resourceVersion' },
};
const pod: Step[] = [
  setup(
    post('/api/v1/namespaces/{ns}/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
      automountServiceAccountToken: false,
    }),
  ),
  setup(
    post('/api/v1/namespaces/{ns}/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    }),
  ),
];
/** A ConfigMap whose finalizer nobody removes: what it is in stays Terminating. */
export const HELD: Step = setup(
  post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } }),
);
const WIDGETS = '/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets';
const widget = (name: string): Step =>
  setup(
    post(WIDGETS, {
      apiVersion: 'fidelity.flowops.io/v1',
      kind: 'Widget',
      metadata: { name, labels: { x: 'y' } },
      spec: { replicas: 1 },
    }),
  );

export const DELETE_SCENARIOS: Scenario[] = [
  {
    name: 'delete: propagationPolicy=Background',
    steps: [deploy, del(`${DEPLOYS}/d`, options({ propagationPolicy: 'Background' }))],
  },
  {
    name: 'delete: propagationPolicy=Foreground',
    steps: [deploy, del(`${DEPLOYS}/d`, options({ propagationPolicy: 'Foreground' }))],
  },
  {
    name: 'delete: propagationPolicy=Orphan',
    steps: [deploy, del(`${DEPLOYS}/d`, options({ propagationPolicy: 'Orphan' }))],
  },
  {
    name: 'delete: propagationPolicy as a query parameter',
    steps: [deploy, del(`${DEPLOYS}/d?propagationPolicy=Orphan`)],
  },
  {
    name: 'delete: orphanDependents=false',
    steps: [deploy, del(`${DEPLOYS}/d`, options({ orphanDependents: false }))],
  },
  {
    name: 'delete: invalid propagationPolicy',
    steps: [deploy, del(`${DEPLOYS}/d`, options({ propagationPolicy: 'Sometimes' }))],
  },
  {
    name: 'delete: orphanDependents with propagationPolicy',
    steps: [deploy, del(`${DEPLOYS}/d`, options({ propagationPolicy: 'Orphan', orphanDependents: true }))],
  },
  {
    name: 'delete: precondition uid matches',
    steps: [cm('a'), captureUid, del(`${CMS}/a`, options({ preconditions: { uid: '${uid}' } }))],
  },
  {
    name: 'delete: precondition uid differs',
    steps: [cm('a'), del(`${CMS}/a`, options({ preconditions: { uid: '00000000-0000-0000-0000-000000000000' } }))],
  },
  {
    name: 'delete: precondition resourceVersion matches',
    steps: [cm('a'), captureUid, del(`${CMS}/a`, options({ preconditions: { resourceVersion: '${rv}' } }))],
  },
  {
    name: 'delete: precondition resourceVersion differs',
    steps: [cm('a'), del(`${CMS}/a`, options({ preconditions: { resourceVersion: '1' } }))],
  },
  { name: 'delete: dryRun=All keeps the object', steps: [cm('a'), setup(del(`${CMS}/a?dryRun=All`)), get(`${CMS}/a`)] },
  { name: 'delete: dryRun=All answer', steps: [cm('a'), del(`${CMS}/a?dryRun=All`)] },
  {
    name: 'delete: dryRun in DeleteOptions',
    steps: [cm('a'), setup(del(`${CMS}/a`, options({ dryRun: ['All'] }))), get(`${CMS}/a`)],
  },
  {
    name: 'delete: gracePeriodSeconds=0 on a pod',
    steps: [...pod, del('/api/v1/namespaces/{ns}/pods/p', options({ gracePeriodSeconds: 0 }))],
  },
  {
    name: 'delete: gracePeriodSeconds=0 removes the pod',
    steps: [
      ...pod,
      setup(del('/api/v1/namespaces/{ns}/pods/p?gracePeriodSeconds=0')),
      get('/api/v1/namespaces/{ns}/pods/p'),
    ],
  },
  {
    name: 'delete: a pod without a node goes at once',
    steps: [...pod, setup(del('/api/v1/namespaces/{ns}/pods/p')), get('/api/v1/namespaces/{ns}/pods/p')],
  },
  { name: 'delete: gracePeriodSeconds on a configmap', steps: [cm('a'), del(`${CMS}/a?gracePeriodSeconds=30`)] },
  {
    name: 'delete: an object with a finalizer stays',
    steps: [
      setup(
        post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', finalizers: ['example.com/hold'] } }),
      ),
      del(`${CMS}/a`),
    ],
  },
  {
    name: 'delete: an object with a finalizer is terminating',
    steps: [
      setup(
        post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', finalizers: ['example.com/hold'] } }),
      ),
      setup(del(`${CMS}/a`)),
      get(`${CMS}/a`),
    ],
  },
  {
    name: 'delete: deleting twice while terminating',
    steps: [
      setup(
        post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', finalizers: ['example.com/hold'] } }),
      ),
      setup(del(`${CMS}/a`)),
      del(`${CMS}/a`),
    ],
  },
  {
    name: 'delete: collection with a label selector',
    steps: [cm('a', { x: 'y' }), cm('b', { x: 'y' }), cm('c'), del(`${CMS}?labelSelector=x%3Dy`)],
  },
  {
    name: 'delete: collection leaves the rest',
    steps: [cm('a', { x: 'y' }), cm('b', { x: 'y' }), cm('c'), setup(del(`${CMS}?labelSelector=x%3Dy`)), get(CMS)],
  },
  {
    name: 'delete: collection of custom resources',
    steps: [widget('a'), widget('b'), del(`${WIDGETS}?labelSelector=x%3Dy`)],
  },
  { name: 'delete: custom resource', steps: [widget('a'), del(`${WIDGETS}/a`)] },
  {
    name: 'delete: custom resource with Foreground',
    steps: [widget('a'), del(`${WIDGETS}/a`, options({ propagationPolicy: 'Foreground' }))],
  },
  { name: 'delete: namespace', steps: [del('/api/v1/namespaces/{ns}')] },
  // The held ConfigMap keeps the namespace Terminating on both (the real control plane here runs no
  // namespace controller; the embedded server's would otherwise remove it at a moment of its own).
  {
    name: 'delete: namespace is Terminating',
    steps: [HELD, setup(del('/api/v1/namespaces/{ns}')), get('/api/v1/namespaces/{ns}')],
  },
  {
    name: 'delete: DeleteOptions of the wrong kind',
    steps: [cm('a'), del(`${CMS}/a`, { apiVersion: 'v1', kind: 'ConfigMap' })],
  },
  {
    name: 'delete: DeleteOptions in meta.k8s.io/v1',
    steps: [
      cm('a'),
      del(`${CMS}/a`, { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Background' }),
    ],
  },
];
