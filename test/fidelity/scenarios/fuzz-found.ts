import { del, get, post, put, setup, type Scenario } from '../scenario.js';

// What the differential fuzzer (bench/fuzz, `npx tsx bench/fidelity.ts --fuzz N`) found different,
// kept as scenarios so that every run of test/real/fidelity.test.ts compares them again: CronJob's
// spec.timeZone (validateTimeZone), the pod fields v1.34's default feature gates drop
// (podutil.DropDisabledPodFields), and a claim's data source given on update.

const CRONJOBS = '/apis/batch/v1/namespaces/{ns}/cronjobs';
const JOBS = '/apis/batch/v1/namespaces/{ns}/jobs';
const CLAIMS = '/api/v1/namespaces/{ns}/persistentvolumeclaims';

const cronJob = (name: string, timeZone: string) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule: '*/5 * * * *',
    timeZone,
    jobTemplate: {
      spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } },
    },
  },
});

const zones: Array<[string, string]> = [
  ['unknown', 'x'],
  ['Local', 'Local'],
  ['local in lower case', 'local'],
  ['a path out of the database', 'a/../b'],
  ['empty', ''],
  ['wrong case', 'europe/berlin'],
  ['a canonical name', 'Europe/Berlin'],
  ['a backward-compatible alias', 'US/Eastern'],
  ['a legacy name with a sign', 'Etc/GMT+5'],
];

/**
 * Fields of gates v1.34 leaves off: ContainerRestartRules, HostnameOverride, ContainerStopSignals. (EnvFiles'
 * fileKeyRef is dropped too, which leaves an empty valueFrom; kube-apiserver refuses that and this server does
 * not validate env yet.)
 */
const gatedJob = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'gated' },
  spec: {
    template: {
      spec: {
        restartPolicy: 'Never',
        hostnameOverride: 'h',
        containers: [
          {
            name: 'c',
            image: 'busybox',
            restartPolicy: 'Always',
            lifecycle: { stopSignal: 'SIGUSR1' },
          },
        ],
      },
    },
  },
};

const claim = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'c' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

const daemonSet = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'no-selector' },
  spec: {
    minReadySeconds: -1,
    template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
  },
};

export const FUZZ_FOUND_SCENARIOS: Scenario[] = [
  {
    name: "fuzz-found: a Namespace's bad name is also its metadata.name label's",
    steps: [post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Bad_Name' } })],
    noNamespace: true,
  },
  {
    name: "fuzz-found: a Namespace's status phase while it is not being deleted",
    steps: [
      setup(post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '{ns}-phase' } })),
      put('/api/v1/namespaces/{ns}-phase/status', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: '{ns}-phase' },
        status: { phase: 'Terminating' },
      }),
      setup(del('/api/v1/namespaces/{ns}-phase')),
    ],
  },
  {
    name: 'fuzz-found: a DaemonSet without a selector, and a negative minReadySeconds',
    steps: [post('/apis/apps/v1/namespaces/{ns}/daemonsets', daemonSet)],
  },
  ...zones.map(
    ([what, zone], i): Scenario => ({
      name: `fuzz-found: CronJob spec.timeZone, ${what}`,
      steps: [post(CRONJOBS, cronJob(`tz-${i}`, zone))],
    }),
  ),
  {
    name: "fuzz-found: a Job's pod fields of disabled feature gates are dropped",
    steps: [post(JOBS, gatedJob, { select: 'spec.template.spec' })],
  },
  {
    name: "fuzz-found: a PersistentVolumeClaim's data source given on update",
    steps: [
      setup(post(CLAIMS, claim)),
      // Refused on both; the spec-is-immutable cause ends with go-cmp's diff of the two specs, which is not
      // written here, so only the status is compared (test/apiserver/fuzz-found.test.ts checks the causes).
      put(`${CLAIMS}/c`, { ...claim, spec: { ...claim.spec, dataSourceRef: {} } }, { compare: 'status' }),
      get(`${CLAIMS}/c`, { select: 'spec' }),
    ],
  },
  {
    name: "fuzz-found: a CSIDriver's defaults, and a bad fsGroupPolicy",
    steps: [
      post(
        '/apis/storage.k8s.io/v1/csidrivers',
        {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSIDriver',
          metadata: { name: '{ns}.csi.example.com' },
          spec: { nodeAllocatableUpdatePeriodSeconds: 1 },
        },
        { ignore: ['metadata.managedFields'] },
      ),
      post('/apis/storage.k8s.io/v1/csidrivers', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'bad.{ns}.csi.example.com' },
        spec: { fsGroupPolicy: 'abc' },
      }),
      setup(del('/apis/storage.k8s.io/v1/csidrivers/{ns}.csi.example.com')),
    ],
  },
  {
    name: "fuzz-found: a CSINode's drivers are checked and fixed once set",
    steps: [
      post('/apis/storage.k8s.io/v1/csinodes', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: '{ns}-bad' },
        spec: { drivers: [{ nodeID: '' }, { name: 'b.example.com', nodeID: 'n', allocatable: { count: -1 } }] },
      }),
      setup(
        post('/apis/storage.k8s.io/v1/csinodes', {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSINode',
          metadata: { name: '{ns}-node' },
          spec: { drivers: [{ name: 'a.example.com', nodeID: 'n' }] },
        }),
      ),
      put('/apis/storage.k8s.io/v1/csinodes/{ns}-node', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: '{ns}-node' },
        spec: { drivers: [] },
      }),
      // Only read for its resourceVersion: a stored driver's topologyKeys is null on kube-apiserver (a nil
      // slice without omitempty), and left out here.
      setup(get('/apis/storage.k8s.io/v1/csinodes/{ns}-node', { capture: { rv: 'metadata.resourceVersion' } })),
      put('/apis/storage.k8s.io/v1/csinodes/{ns}-node', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: '{ns}-node', resourceVersion: '${rv}' },
        spec: { drivers: [{ name: 'a.example.com', nodeID: 'm', allocatable: { count: 2 } }] },
      }),
      setup(del('/apis/storage.k8s.io/v1/csinodes/{ns}-node')),
    ],
  },
];
