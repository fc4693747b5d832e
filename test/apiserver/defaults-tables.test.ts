import { describe, expect, it } from 'vitest';
import { prepareNewJob } from '../../src/apiserver/defaults/batch-v1.js';
import { defaulterFor } from '../../src/apiserver/defaults/index.js';
import { defaultImagePullPolicy } from '../../src/apiserver/defaults/image-pull-policy.js';
import { qosClass } from '../../src/apiserver/defaults/pod.js';
import { quantityNanos } from '../../src/apiserver/defaults/quantity.js';
import { ServiceCidr } from '../../src/apiserver/defaults/service-cidr.js';
import type { JsonObject } from '../../src/apiserver/registry/types.js';

/**
 * The defaulting tables against upstream's SetDefaults_* (pkg/apis/{core,apps,batch}/v1/defaults.go),
 * case by case: what an unset field becomes, and that a set one (Go zero values included where the
 * field is a pointer) is kept.
 */
function defaulted(apiVersion: string, kind: string, obj: JsonObject, op: 'CREATE' | 'UPDATE' = 'CREATE'): JsonObject {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const d = defaulterFor({ group: group!, version: version!, kind })!;
  expect(d, `${apiVersion} ${kind} has a defaulter`).toBeDefined();
  const copy = structuredClone(obj);
  d(copy, op);
  // A new Job's selector comes from its strategy, a storage step after defaulting (admission-plugins.ts).
  if (kind === 'Job' && op === 'CREATE') prepareNewJob(copy);
  return copy;
}

const CONTAINER_DEFAULTS = {
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
};
const POD_SPEC_DEFAULTS = {
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  dnsPolicy: 'ClusterFirst',
  securityContext: {},
  schedulerName: 'default-scheduler',
};
const template = (spec: JsonObject): JsonObject => ({ metadata: { labels: { app: 'x' } }, spec });

describe('imagePullPolicy (SetDefaults_Container with parsers.ParseImageName)', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['library/nginx', 'Always'],
    ['localhost:5000/app', 'Always'],
    ['registry.example.com:443/team/app', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['localhost:5000/app:v1', 'IfNotPresent'],
    ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
    ['nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'Always'],
    ['NGINX', 'IfNotPresent'],
    ['', 'IfNotPresent'],
  ])('%s → %s', (image, want) => {
    expect(defaultImagePullPolicy(image)).toBe(want);
  });
});

describe('PodSpec and Container (SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Probe, …)', () => {
  it('fills a bare pod template', () => {
    const d = defaulted('apps/v1', 'ReplicaSet', {
      spec: {
        template: template({ containers: [{ name: 'c', image: 'busybox:1.36', ports: [{ containerPort: 80 }] }] }),
      },
    });
    expect(d.spec).toEqual({
      replicas: 1,
      template: template({
        ...POD_SPEC_DEFAULTS,
        containers: [
          {
            name: 'c',
            image: 'busybox:1.36',
            imagePullPolicy: 'IfNotPresent',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            ...CONTAINER_DEFAULTS,
          },
        ],
      }),
    });
  });

  it('keeps what is set, a pointer set to its zero value included', () => {
    const spec = {
      restartPolicy: 'OnFailure',
      terminationGracePeriodSeconds: 0,
      dnsPolicy: 'None',
      schedulerName: 'mine',
      securityContext: { runAsUser: 1000 },
      containers: [
        {
          name: 'c',
          image: 'nginx',
          imagePullPolicy: 'Never',
          terminationMessagePolicy: 'FallbackToLogsOnError',
          resources: { limits: { cpu: '1' } },
          ports: [{ containerPort: 53, protocol: 'UDP' }],
        },
      ],
    };
    const d = defaulted('apps/v1', 'ReplicaSet', { spec: { replicas: 0, template: template(spec) } });
    expect(d.spec).toEqual({
      replicas: 0,
      template: template({
        ...spec,
        containers: [{ ...spec.containers[0], terminationMessagePath: '/dev/termination-log' }],
      }),
    });
  });

  it('probes, lifecycle handlers, downward API field refs, volumes', () => {
    const d = defaulted('apps/v1', 'ReplicaSet', {
      spec: {
        template: template({
          containers: [
            {
              name: 'c',
              image: 'app:1',
              livenessProbe: { httpGet: { port: 8080 } },
              readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
              lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } },
              env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            },
          ],
          volumes: [
            { name: 'scratch' },
            { name: 's', secret: { secretName: 'x' } },
            { name: 'cm', configMap: { name: 'y', defaultMode: 256 } },
            { name: 'h', hostPath: { path: '/data' } },
            { name: 'd', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
            { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
          ],
        }),
      },
    });
    const spec = (d.spec as JsonObject).template as JsonObject;
    const podSpec = spec.spec as { containers: JsonObject[]; volumes: JsonObject[] };
    const c = podSpec.containers[0]!;
    expect(c.livenessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.readinessProbe).toEqual({
      exec: { command: ['true'] },
      periodSeconds: 5,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.lifecycle).toEqual({ preStop: { httpGet: { port: 80, path: '/stop', scheme: 'HTTP' } } });
    expect(c.env).toEqual([
      { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName', apiVersion: 'v1' } } },
    ]);
    expect(podSpec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 's', secret: { secretName: 'x', defaultMode: 420 } },
      { name: 'cm', configMap: { name: 'y', defaultMode: 256 } },
      { name: 'h', hostPath: { path: '/data', type: '' } },
      {
        name: 'd',
        downwardAPI: {
          defaultMode: 420,
          items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }],
        },
      },
      {
        name: 'p',
        projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }] },
      },
    ]);
  });
});

describe('Pod (SetDefaults_Pod, podStrategy.PrepareForCreate)', () => {
  it('a bare Pod: spec defaults, enableServiceLinks, status Pending BestEffort', () => {
    const d = defaulted('v1', 'Pod', {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(d).toEqual({
      metadata: { name: 'p' },
      spec: {
        ...POD_SPEC_DEFAULTS,
        enableServiceLinks: true,
        containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Always', ...CONTAINER_DEFAULTS }],
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
  });

  it('requests default to limits; with hostNetwork, container ports are host ports; status only on create', () => {
    const pod: JsonObject = {
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'c',
            image: 'a:1',
            ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 9081 }],
            resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } },
          },
        ],
      },
    };
    const d = defaulted('v1', 'Pod', pod);
    const c = (d.spec as { containers: JsonObject[] }).containers[0]!;
    expect(c.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    expect(c.ports).toEqual([
      { containerPort: 80, hostPort: 80, protocol: 'TCP' },
      { containerPort: 81, hostPort: 9081, protocol: 'TCP' },
    ]);
    expect(d.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
    expect(defaulted('v1', 'Pod', { ...pod, status: { phase: 'Running' } }, 'UPDATE').status).toEqual({
      phase: 'Running',
    });
  });

  it.each([
    ['no resources', [{}], 'BestEffort'],
    ['limits only, cpu and memory (requests default to them)', [{ limits: { cpu: '1', memory: '1Gi' } }], 'Guaranteed'],
    [
      'equal in other units',
      [{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } }],
      'Guaranteed',
    ],
    [
      'requests below limits',
      [{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '1Gi' } }],
      'Burstable',
    ],
    ['one container without limits', [{ limits: { cpu: '1', memory: '1Gi' } }, {}], 'Burstable'],
    ['only a cpu limit', [{ limits: { cpu: '1' } }], 'Burstable'],
    ['other resources do not count', [{ limits: { 'nvidia.com/gpu': '1' } }], 'BestEffort'],
  ] as Array<[string, JsonObject[], string]>)('QoS: %s → %s', (_what, resources, want) => {
    const d = defaulted('v1', 'Pod', {
      spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'a:1', resources: r })) },
    });
    expect((d.status as JsonObject).qosClass).toBe(want);
    expect(qosClass(d.spec as JsonObject)).toBe(want);
  });
});

describe('apps/v1 (SetDefaults_Deployment, _StatefulSet, _DaemonSet)', () => {
  const podSpec = { containers: [{ name: 'c', image: 'a:1' }] };
  it('Deployment', () => {
    const d = defaulted('apps/v1', 'Deployment', {
      spec: { selector: { matchLabels: { app: 'x' } }, template: template(podSpec) },
    });
    const { template: _t, ...spec } = d.spec as JsonObject;
    expect(spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'x' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(((d.spec as JsonObject).template as JsonObject).spec).toMatchObject(POD_SPEC_DEFAULTS);
    const recreate = defaulted('apps/v1', 'Deployment', {
      spec: { strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, template: template(podSpec) },
    });
    expect((recreate.spec as JsonObject).strategy).toEqual({ type: 'Recreate' });
    expect((recreate.spec as JsonObject).revisionHistoryLimit).toBe(0);
    const partial = defaulted('apps/v1', 'Deployment', {
      spec: { strategy: { rollingUpdate: { maxSurge: 1 } }, template: template(podSpec) },
    });
    expect((partial.spec as JsonObject).strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' },
    });
  });

  it('StatefulSet', () => {
    const d = defaulted('apps/v1', 'StatefulSet', {
      spec: {
        serviceName: 'db',
        template: template(podSpec),
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      },
    });
    const { template: _t, ...spec } = d.spec as JsonObject;
    expect(spec).toEqual({
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' },
          status: { phase: 'Pending' },
        },
      ],
    });
    const onDelete = defaulted('apps/v1', 'StatefulSet', {
      spec: { updateStrategy: { type: 'OnDelete' }, podManagementPolicy: 'Parallel', template: template(podSpec) },
    });
    expect((onDelete.spec as JsonObject).updateStrategy).toEqual({ type: 'OnDelete' });
    expect((onDelete.spec as JsonObject).podManagementPolicy).toBe('Parallel');
    // RollingUpdate named without rollingUpdate: upstream leaves it absent.
    const named = defaulted('apps/v1', 'StatefulSet', {
      spec: { updateStrategy: { type: 'RollingUpdate' }, template: template(podSpec) },
    });
    expect((named.spec as JsonObject).updateStrategy).toEqual({ type: 'RollingUpdate' });
  });

  it('DaemonSet', () => {
    const d = defaulted('apps/v1', 'DaemonSet', { spec: { template: template(podSpec) } });
    expect((d.spec as JsonObject).updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    expect((d.spec as JsonObject).revisionHistoryLimit).toBe(10);
  });
});

describe('batch/v1 (SetDefaults_Job, SetDefaults_CronJob)', () => {
  const podSpec = { restartPolicy: 'Never', containers: [{ name: 'c', image: 'a:1' }] };
  it('Job', () => {
    const d = defaulted('batch/v1', 'Job', {
      metadata: { name: 'j', uid: 'u-1' },
      spec: { template: template(podSpec) },
    });
    const { template: t, ...spec } = d.spec as JsonObject;
    expect(spec).toEqual({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      // kube-apiserver 1.34 stores it (test/fidelity "Job: defaults of a minimal object").
      manualSelector: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' } },
    });
    expect((t as JsonObject).metadata).toEqual({
      labels: {
        app: 'x',
        'job-name': 'j',
        'batch.kubernetes.io/job-name': 'j',
        'controller-uid': 'u-1',
        'batch.kubernetes.io/controller-uid': 'u-1',
      },
    });
    // The Job's labels are the template's as the client sent them.
    expect((d.metadata as JsonObject).labels).toEqual({ app: 'x' });
    const parallel = defaulted('batch/v1', 'Job', {
      spec: {
        parallelism: 3,
        podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] },
        template: template(podSpec),
      },
    });
    expect((parallel.spec as JsonObject).completions).toBeUndefined();
    expect((parallel.spec as JsonObject).podReplacementPolicy).toBe('Failed');
    expect((parallel.spec as JsonObject).podFailurePolicy).toEqual({
      rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
    });
  });

  it('Job: generated labels become the labels of a Job whose template had none; a manual selector is left alone', () => {
    const bare = defaulted('batch/v1', 'Job', {
      metadata: { name: 'j', uid: 'u-2' },
      spec: { template: { spec: podSpec } },
    });
    expect((bare.metadata as JsonObject).labels).toEqual({
      'job-name': 'j',
      'batch.kubernetes.io/job-name': 'j',
      'controller-uid': 'u-2',
      'batch.kubernetes.io/controller-uid': 'u-2',
    });
    const manual = defaulted('batch/v1', 'Job', {
      metadata: { name: 'm', uid: 'u-3' },
      spec: { manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: template(podSpec) },
    });
    expect((manual.spec as JsonObject).selector).toEqual({ matchLabels: { app: 'x' } });
    expect(((manual.spec as JsonObject).template as JsonObject).metadata).toEqual({ labels: { app: 'x' } });
    const updated = defaulted(
      'batch/v1',
      'Job',
      { metadata: { name: 'u', uid: 'u-4' }, spec: { template: template(podSpec) } },
      'UPDATE',
    );
    expect((updated.spec as JsonObject).selector).toBeUndefined();
  });

  it('CronJob', () => {
    const d = defaulted('batch/v1', 'CronJob', {
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: template(podSpec) } } },
    });
    const { jobTemplate, ...spec } = d.spec as JsonObject;
    expect(spec).toEqual({
      schedule: '* * * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect((((jobTemplate as JsonObject).spec as JsonObject).template as JsonObject).spec).toMatchObject({
      ...POD_SPEC_DEFAULTS,
      restartPolicy: 'Never',
    });
  });
});

describe('Service (SetDefaults_Service)', () => {
  it('ClusterIP', () => {
    const d = defaulted('v1', 'Service', {
      spec: { selector: { app: 'x' }, ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }] },
    });
    expect(d.spec).toEqual({
      selector: { app: 'x' },
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 53, protocol: 'UDP', targetPort: 'dns' },
      ],
    });
  });

  it('LoadBalancer, ClientIP affinity, ExternalName', () => {
    const lb = defaulted('v1', 'Service', {
      spec: { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 443, targetPort: 0 }] },
    });
    expect(lb.spec).toEqual({
      type: 'LoadBalancer',
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
      ports: [{ port: 443, protocol: 'TCP', targetPort: 443 }],
    });
    const none = defaulted('v1', 'Service', { spec: { sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } } });
    expect((none.spec as JsonObject).sessionAffinityConfig).toBeUndefined();
    const ext = defaulted('v1', 'Service', { spec: { type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
    const externalIPs = defaulted('v1', 'Service', { spec: { externalIPs: ['1.2.3.4'] } });
    expect((externalIPs.spec as JsonObject).externalTrafficPolicy).toBe('Cluster');
  });
});

describe('core/v1 others', () => {
  it('PersistentVolumeClaim, PersistentVolume, Endpoints, ReplicationController', () => {
    expect(defaulted('v1', 'PersistentVolumeClaim', { spec: {} })).toEqual({
      spec: { volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    expect(defaulted('v1', 'PersistentVolume', { spec: {} })).toEqual({
      spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    expect(defaulted('v1', 'Endpoints', { subsets: [{ ports: [{ port: 80 }] }] })).toEqual({
      subsets: [{ ports: [{ port: 80, protocol: 'TCP' }] }],
    });
    const rc = defaulted('v1', 'ReplicationController', {
      metadata: { name: 'rc' },
      spec: { template: template({ containers: [] }) },
    });
    expect(rc.metadata).toEqual({ name: 'rc', labels: { app: 'x' } });
    expect((rc.spec as JsonObject).selector).toEqual({ app: 'x' });
    expect((rc.spec as JsonObject).replicas).toBe(1);
  });
});

describe('quantities', () => {
  it.each([
    ['1', 1_000_000_000n],
    ['1000m', 1_000_000_000n],
    ['0.5', 500_000_000n],
    ['.5', 500_000_000n],
    ['1k', 1_000_000_000_000n],
    ['1e3', 1_000_000_000_000n],
    ['1Ki', 1024_000_000_000n],
    ['1Gi', 1073741824_000_000_000n],
    ['1n', 1n],
    ['-2', -2_000_000_000n],
  ])('%s', (text, nanos) => {
    expect(quantityNanos(text)).toBe(nanos);
  });
  it.each(['', 'abc', '1KiB', '1.2.3', '1 Gi'])('%j is not a quantity', (text) => {
    expect(quantityNanos(text)).toBeUndefined();
  });
});

describe('ServiceCidr', () => {
  it('hands out neither the network nor the broadcast address, and knows the kubernetes Service address', () => {
    const c = new ServiceCidr('10.96.0.0/12');
    expect(c.apiServerIP).toBe('10.96.0.1');
    expect(c.size).toBe(1 << 20);
    expect([
      c.contains('10.96.0.0'),
      c.contains('10.96.0.1'),
      c.contains('10.111.255.254'),
      c.contains('10.111.255.255'),
      c.contains('10.112.0.1'),
    ]).toEqual([false, true, true, false, false]);
    expect(c.contains('10.096.0.1')).toBe(false);
  });
  it.each(['10.96.0.0', '10.96.0.1/12', 'fd00::/108', '10.96.0.0/31', 'x/12'])(
    'refuses %j, saying what it expected',
    (cidr) => {
      expect(() => new ServiceCidr(cidr)).toThrow(/--service-cidr: /);
    },
  );
});
