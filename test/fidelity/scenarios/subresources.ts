import {
  APPLY_PATCH,
  JSON_PATCH,
  MERGE_PATCH,
  get,
  patch,
  post,
  put,
  setup,
  type Scenario,
  type Step,
} from '../scenario.js';

// The status and scale subresources of the built-in workloads and of the fixture CRD.

const workload = (kind: string, plural: string) => ({ kind, plural, path: `/apis/apps/v1/namespaces/{ns}/${plural}` });
const WORKLOADS = [
  workload('Deployment', 'deployments'),
  workload('StatefulSet', 'statefulsets'),
  workload('ReplicaSet', 'replicasets'),
];
const template = { metadata: { labels: { app: 'fid' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const create = (w: (typeof WORKLOADS)[number]): Step =>
  setup(
    post(w.path, {
      apiVersion: 'apps/v1',
      kind: w.kind,
      metadata: { name: 'w' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'fid' } }, template },
    }),
  );
const WIDGETS = '/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets';
const widget = setup(
  post(WIDGETS, {
    apiVersion: 'fidelity.flowops.io/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec: { replicas: 2 },
  }),
);
const scale = (replicas: number) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: { name: 'w', namespace: '{ns}' },
  spec: { replicas },
});

function workloadScenarios(w: (typeof WORKLOADS)[number]): Scenario[] {
  const one = `${w.path}/w`;
  const n = (what: string): string => `${w.kind}: ${what}`;
  return [
    { name: n('get scale'), steps: [create(w), get(`${one}/scale`)] },
    { name: n('put scale'), steps: [create(w), put(`${one}/scale`, scale(5))] },
    { name: n('merge patch scale'), steps: [create(w), patch(`${one}/scale`, MERGE_PATCH, { spec: { replicas: 4 } })] },
    {
      name: n('json patch scale'),
      steps: [create(w), patch(`${one}/scale`, JSON_PATCH, [{ op: 'replace', path: '/spec/replicas', value: 3 }])],
    },
    {
      name: n('scale changes spec.replicas'),
      steps: [
        create(w),
        setup(patch(`${one}/scale`, MERGE_PATCH, { spec: { replicas: 4 } })),
        get(one, { select: 'spec.replicas' }),
      ],
    },
    { name: n('get status'), steps: [create(w), get(`${one}/status`)] },
    {
      name: n('merge patch status'),
      steps: [
        create(w),
        patch(`${one}/status`, MERGE_PATCH, { status: { replicas: 2, readyReplicas: 1, observedGeneration: 1 } }),
      ],
    },
    {
      name: n('status patch ignores spec'),
      steps: [
        create(w),
        setup(patch(`${one}/status`, MERGE_PATCH, { spec: { replicas: 9 }, status: { replicas: 2 } })),
        get(one, { select: 'spec.replicas' }),
      ],
    },
    {
      name: n('main resource ignores status'),
      steps: [create(w), setup(patch(one, MERGE_PATCH, { status: { replicas: 7 } })), get(one, { select: 'status' })],
    },
    {
      name: n('put status'),
      steps: [
        create(w),
        { ...get(one), compare: 'none', capture: { rv: 'metadata.resourceVersion' } },
        put(`${one}/status`, {
          apiVersion: 'apps/v1',
          kind: w.kind,
          metadata: { name: 'w', resourceVersion: '${rv}' },
          spec: { selector: { matchLabels: { app: 'fid' } }, template },
          status: { replicas: 1 },
        }),
      ],
    },
    {
      name: n('apply status'),
      steps: [
        create(w),
        patch(`${one}/status?fieldManager=ctl&force=true`, APPLY_PATCH, {
          apiVersion: 'apps/v1',
          kind: w.kind,
          metadata: { name: 'w' },
          status: { replicas: 2 },
        }),
      ],
    },
  ];
}

export const SUBRESOURCE_SCENARIOS: Scenario[] = [
  ...WORKLOADS.flatMap(workloadScenarios),
  { name: 'Widget: get scale', steps: [widget, get(`${WIDGETS}/w/scale`)] },
  { name: 'Widget: put scale', steps: [widget, put(`${WIDGETS}/w/scale`, scale(5))] },
  {
    name: 'Widget: merge patch scale',
    steps: [widget, patch(`${WIDGETS}/w/scale`, MERGE_PATCH, { spec: { replicas: 4 } })],
  },
  {
    name: 'Widget: scale changes spec.replicas',
    steps: [
      widget,
      setup(patch(`${WIDGETS}/w/scale`, MERGE_PATCH, { spec: { replicas: 4 } })),
      get(`${WIDGETS}/w`, { select: 'spec' }),
    ],
  },
  { name: 'Widget: get status', steps: [widget, get(`${WIDGETS}/w/status`)] },
  {
    name: 'Widget: merge patch status',
    steps: [widget, patch(`${WIDGETS}/w/status`, MERGE_PATCH, { status: { replicas: 2, selector: 'app=fid' } })],
  },
  {
    name: 'Widget: scale after status',
    steps: [
      widget,
      setup(patch(`${WIDGETS}/w/status`, MERGE_PATCH, { status: { replicas: 2, selector: 'app=fid' } })),
      get(`${WIDGETS}/w/scale`),
    ],
  },
  {
    name: 'Widget: status patch ignores spec',
    steps: [
      widget,
      setup(patch(`${WIDGETS}/w/status`, MERGE_PATCH, { spec: { replicas: 9 }, status: { replicas: 1 } })),
      get(`${WIDGETS}/w`),
    ],
  },
  {
    name: 'Widget: main resource ignores status',
    steps: [widget, setup(patch(`${WIDGETS}/w`, MERGE_PATCH, { status: { replicas: 7 } })), get(`${WIDGETS}/w`)],
  },
  { name: 'Widget: default applied', steps: [widget, get(`${WIDGETS}/w`, { select: 'spec' })] },
  {
    name: 'Widget: unknown fields pruned',
    steps: [
      setup(
        post(WIDGETS, {
          apiVersion: 'fidelity.flowops.io/v1',
          kind: 'Widget',
          metadata: { name: 'w' },
          spec: { replicas: 1, extra: 'x' },
        }),
      ),
      get(`${WIDGETS}/w`, { select: 'spec' }),
    ],
  },
  {
    name: 'Widget: strict validation of unknown fields',
    steps: [
      post(`${WIDGETS}?fieldValidation=Strict`, {
        apiVersion: 'fidelity.flowops.io/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { replicas: 1, extra: 'x' },
      }),
    ],
  },
  {
    name: 'Widget: warn on unknown fields',
    steps: [
      post(`${WIDGETS}?fieldValidation=Warn`, {
        apiVersion: 'fidelity.flowops.io/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { replicas: 1, extra: 'x' },
      }),
    ],
  },
  {
    name: 'Pod: status subresource',
    steps: [
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
      patch('/api/v1/namespaces/{ns}/pods/p/status', MERGE_PATCH, { status: { phase: 'Running' } }),
    ],
  },
  { name: 'Namespace: status subresource', steps: [get('/api/v1/namespaces/{ns}/status')] },
  {
    name: 'Service: status subresource',
    steps: [
      setup(
        post('/api/v1/namespaces/{ns}/services', {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 's' },
          spec: { ports: [{ port: 80 }] },
        }),
      ),
      get('/api/v1/namespaces/{ns}/services/s/status'),
    ],
  },
];
