import { execFileSync } from 'node:child_process';
import { waitFor } from '../../helpers/wait.js';
import type { ApiAnswer, ApiCall } from './webhook-cases.js';

/**
 * Cases of kube-apiserver's built-in admission plugins (LimitRanger, ResourceQuota, Priority,
 * RuntimeClass, NamespaceLifecycle), shared by test/apiserver/admission-plugins.test.ts (the
 * embedded server, with the answers expected) and test/real/admission-plugins.test.ts (both
 * servers, compared). Each case has a namespace of its own, `plug-<key>`, its setup objects, then
 * its steps; a ResourceQuota's status is written as KCM's controller would (the real control plane
 * here runs no quota controller). `ready` is a dry run repeated until it answers as expected: the
 * real server's plugins read their objects through informers, which catch up a moment later.
 */
type Json = Record<string, unknown>;

export interface Step {
  method: 'POST' | 'GET' | 'PUT' | 'DELETE';
  /** Relative to the case's namespace (`pods`), or absolute from `/`. */
  path: string;
  body?: Json;
  /** A PUT of the stored object with `body`'s labels added (read first). */
  labels?: Record<string, string>;
  /** A PUT of the stored claim with this storage request (read first). */
  storage?: string;
}

export interface PluginCase {
  key: string;
  /** The case namespace's labels (PodSecurity's). */
  labels?: Record<string, string>;
  setup?: Step[];
  /** Repeated until it answers `status` (and, with `warned`, with a warning or without one). */
  ready?: { step: Step; status: number; warned?: boolean; has?: string };
  steps: Step[];
}

export interface StepOutcome {
  status: number;
  reason: unknown;
  message: unknown;
  causes: unknown;
  warnings: string[];
  /** The parts of the returned object the plugins set. */
  object: unknown;
}

const container = (name: string, resources?: Json, extra: Json = {}): Json => ({
  name,
  image: 'nginx',
  ...(resources ? { resources } : {}),
  ...extra,
});
const pod = (name: string, spec: Json = {}, extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...extra },
  spec: { containers: [container('c')], ...spec },
});
const createPod = (name: string, spec: Json = {}, dry = false): Step => ({
  method: 'POST',
  path: `pods${dry ? '?dryRun=All' : ''}`,
  body: pod(name, spec),
});
const limitRange = (limits: Json[]): Step => ({
  method: 'POST',
  path: 'limitranges',
  body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits } },
});
/** A quota and the status KCM's resourcequota controller would give it. */
const quota = (hard: Json, used: Json, extra: Json = {}): Step[] => [
  {
    method: 'POST',
    path: 'resourcequotas',
    body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard, ...extra } },
  },
  { method: 'PUT', path: 'resourcequotas/q/status', body: { status: { hard, used } } },
];
const getQuota: Step = { method: 'GET', path: 'resourcequotas/q' };
const configMap = (name: string, dry = false): Step => ({
  method: 'POST',
  path: `configmaps${dry ? '?dryRun=All' : ''}`,
  body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
});
const cpuPod = (name: string, cpu: string, dry = false): Step =>
  createPod(name, { containers: [container('c', { requests: { cpu } })] }, dry);
const secret = (name: string): Step => ({
  method: 'POST',
  path: 'secrets',
  body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { a: '1' } },
});
const claim = (name: string, spec: Json = {}): Step => ({
  method: 'POST',
  path: 'persistentvolumeclaims',
  body: {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  },
});
/** A PUT of a stored claim with a larger storage request. */
const grow = (name: string, storage: string, dry = false): Step => ({
  method: 'PUT',
  path: `persistentvolumeclaims/${name}${dry ? '?dryRun=All' : ''}`,
  storage,
});
const ingress = (name: string, spec: Json = {}): Step => ({
  method: 'POST',
  path: `/apis/networking.k8s.io/v1/namespaces/plug-default-classes/ingresses`,
  body: {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name },
    spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } }, ...spec },
  },
});
/** A certification request of a fresh ECDSA P-256 key, made by openssl. */
function csrPem(subject: string): string {
  const args = ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  return execFileSync('openssl', [...args, '-keyout', '/dev/null', '-subj', subject], { encoding: 'utf8' });
}
const csr = (name: string, signerName: string, subject: string): Step => ({
  method: 'POST',
  path: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
  body: {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { signerName, usages: ['client auth'], request: Buffer.from(csrPem(subject)).toString('base64') },
  },
});
const priorityClass = (name: string, value: number, extra: Json = {}): Step => ({
  method: 'POST',
  path: '/apis/scheduling.k8s.io/v1/priorityclasses',
  body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra },
});

/** A Pod failing appArmorProfile, hostProbesAndHostLifecycle, procMount, seLinuxOptions and sysctls. */
const PS_BASELINE_BAD: Json = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'bad',
    annotations: {
      'container.apparmor.security.beta.kubernetes.io/a': 'unconfined',
    },
  },
  spec: {
    securityContext: {
      appArmorProfile: {
        type: 'Unconfined',
      },
      seLinuxOptions: {
        type: 'spc_t',
        user: 'u',
      },
      sysctls: [
        {
          name: 'kernel.msgmax',
          value: '1',
        },
        {
          name: 'net.ipv4.tcp_syncookies',
          value: '1',
        },
        {
          name: 'net.ipv4.tcp_rmem',
          value: '1',
        },
      ],
    },
    containers: [
      {
        name: 'a',
        image: 'i',
        securityContext: {
          procMount: 'Unmasked',
          seLinuxOptions: {
            role: 'r',
            type: 'container_engine_t',
          },
        },
        livenessProbe: {
          httpGet: {
            host: '10.0.0.1',
            port: 80,
          },
        },
        lifecycle: {
          preStop: {
            tcpSocket: {
              host: 'evil',
              port: 1,
            },
          },
        },
      },
      {
        name: 'b',
        image: 'i',
        securityContext: {
          appArmorProfile: {
            type: 'Localhost',
            localhostProfile: 'p',
          },
        },
        readinessProbe: {
          tcpSocket: {
            host: '10.0.0.1',
            port: 81,
          },
        },
      },
    ],
    hostUsers: false,
  },
};
/** windowsHostProcess (with the hostNetwork Pod validation requires of it). */
const PS_HOST_PROCESS: Json = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'bad2',
  },
  spec: {
    hostNetwork: true,
    securityContext: {
      windowsOptions: {
        hostProcess: true,
      },
    },
    containers: [
      {
        name: 'w',
        image: 'i',
        securityContext: {
          windowsOptions: {
            hostProcess: true,
          },
        },
      },
    ],
  },
};
const PS_BASELINE_OK: Json = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'ok',
  },
  spec: {
    securityContext: {
      seLinuxOptions: {
        type: 'container_init_t',
      },
      sysctls: [
        {
          name: 'net.ipv4.tcp_syncookies',
          value: '1',
        },
      ],
    },
    containers: [
      {
        name: 'a',
        image: 'i',
        securityContext: {
          procMount: 'Default',
          appArmorProfile: {
            type: 'RuntimeDefault',
          },
        },
        livenessProbe: {
          httpGet: {
            port: 80,
          },
        },
      },
    ],
  },
};

export const PLUGIN_CASES: PluginCase[] = [
  {
    key: 'lr-defaults',
    setup: [
      limitRange([
        {
          type: 'Container',
          default: { cpu: '500m', memory: '256Mi' },
          defaultRequest: { cpu: '100m', memory: '64Mi' },
        },
      ]),
    ],
    steps: [
      createPod('p', {
        initContainers: [container('init')],
        containers: [container('a', { requests: { cpu: '200m' } }), container('b', { limits: { memory: '128Mi' } })],
      }),
    ],
  },
  {
    key: 'lr-max',
    setup: [limitRange([{ type: 'Container', max: { cpu: '1' } }])],
    steps: [createPod('p', { containers: [container('c', { limits: { cpu: '2' } })] })],
  },
  {
    key: 'lr-max-no-limit',
    setup: [limitRange([{ type: 'Container', max: { memory: '1Gi' }, default: { memory: '1Gi' } }])],
    steps: [createPod('p'), createPod('q', { containers: [container('c', { limits: { memory: '2Gi' } })] })],
  },
  {
    key: 'lr-min',
    setup: [limitRange([{ type: 'Container', min: { memory: '100Mi' } }])],
    steps: [
      createPod('p', { containers: [container('c', { requests: { memory: '50Mi' } })] }),
      createPod('q', { containers: [container('c')] }),
    ],
  },
  {
    key: 'lr-ratio',
    setup: [limitRange([{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }])],
    steps: [
      createPod('p', { containers: [container('c', { requests: { cpu: '100m' }, limits: { cpu: '500m' } })] }),
      createPod('q', { containers: [container('c', { requests: { cpu: '100m' }, limits: { cpu: '150m' } })] }),
    ],
  },
  {
    key: 'lr-pod-max',
    setup: [limitRange([{ type: 'Pod', max: { memory: '1Gi' } }])],
    steps: [
      createPod('p', {
        containers: [container('a', { limits: { memory: '600Mi' } }), container('b', { limits: { memory: '600Mi' } })],
      }),
    ],
  },
  {
    key: 'lr-pvc',
    setup: [limitRange([{ type: 'PersistentVolumeClaim', max: { storage: '1Gi' }, min: { storage: '100Mi' } }])],
    steps: [
      {
        method: 'POST',
        path: 'persistentvolumeclaims',
        body: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'big' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
        },
      },
    ],
  },
  {
    // requests.cpu beside pods: the probe (no cpu request) is refused once the quota is in force.
    key: 'quota-pods',
    setup: quota({ pods: '1', 'requests.cpu': '1' }, { pods: '0', 'requests.cpu': '0' }),
    ready: { step: createPod('probe', {}, true), status: 403 },
    steps: [cpuPod('a', '100m'), getQuota, cpuPod('b', '100m'), getQuota],
  },
  {
    key: 'quota-dry-run',
    setup: quota({ pods: '1', 'requests.cpu': '1' }, { pods: '0', 'requests.cpu': '0' }),
    ready: { step: createPod('probe', {}, true), status: 403 },
    steps: [cpuPod('a', '100m', true), getQuota],
  },
  {
    key: 'quota-unknown',
    setup: quota({ configmaps: '2' }, {}),
    ready: { step: configMap('probe', true), status: 403 },
    steps: [configMap('a')],
  },
  {
    key: 'quota-cpu-required',
    setup: quota({ 'requests.cpu': '1' }, { 'requests.cpu': '0' }),
    ready: { step: createPod('probe', {}, true), status: 403 },
    steps: [createPod('p')],
  },
  {
    key: 'quota-cpu-exceeded',
    setup: quota({ 'requests.cpu': '1', 'limits.memory': '1Gi' }, { 'requests.cpu': '0', 'limits.memory': '0' }),
    ready: { step: createPod('probe', {}, true), status: 403 },
    steps: [
      createPod('p', { containers: [container('c', { requests: { cpu: '1500m' }, limits: { memory: '512Mi' } })] }),
      createPod('q', { containers: [container('c', { requests: { cpu: '500m' }, limits: { memory: '512Mi' } })] }),
      getQuota,
    ],
  },
  {
    key: 'quota-count',
    setup: quota({ 'count/secrets': '1', pods: '0' }, { 'count/secrets': '0', pods: '0' }),
    ready: { step: createPod('probe', {}, true), status: 403 },
    steps: [secret('a'), secret('b'), getQuota],
  },
  {
    key: 'quota-scope',
    setup: quota({ pods: '0' }, { pods: '0' }, { scopes: ['Terminating'] }),
    ready: { step: createPod('probe', { activeDeadlineSeconds: 60 }, true), status: 403 },
    steps: [createPod('a'), createPod('b', { activeDeadlineSeconds: 60 })],
  },
  {
    key: 'priority-class',
    setup: [priorityClass('plug-high', 1000), priorityClass('plug-never', 10, { preemptionPolicy: 'Never' })],
    ready: { step: createPod('probe', { priorityClassName: 'plug-never' }, true), status: 201 },
    steps: [
      createPod('a', { priorityClassName: 'plug-high' }),
      createPod('b', { priorityClassName: 'plug-never' }),
      createPod('c', { priorityClassName: 'plug-high', priority: 1000 }),
      createPod('d', { priorityClassName: 'plug-high', priority: 7 }),
      createPod('e', { priorityClassName: 'plug-never', preemptionPolicy: 'PreemptLowerPriority' }),
      createPod('f', { priorityClassName: 'system-cluster-critical' }),
    ],
  },
  {
    key: 'priority-none',
    steps: [
      createPod('a'),
      createPod('b', { priorityClassName: 'nope' }),
      createPod('c', { priority: 5 }),
      createPod('d', { preemptionPolicy: 'Never' }),
      createPod('e', { preemptionPolicy: 'Bogus' }),
    ],
  },
  {
    key: 'runtime-class',
    steps: [createPod('a', { runtimeClassName: 'nope' })],
  },
  {
    key: 'namespace-lifecycle',
    steps: [
      { method: 'POST', path: '/api/v1/namespaces/plug-missing/configmaps', body: configMap('a').body ?? {} },
      { method: 'DELETE', path: '/api/v1/namespaces/kube-system?dryRun=All' },
      { method: 'DELETE', path: '/api/v1/namespaces/default?dryRun=All' },
    ],
  },
  {
    key: 'ps-restricted',
    labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
    steps: [
      createPod('plain', { initContainers: [container('init')] }),
      createPod('ok', {
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          container('c', undefined, {
            securityContext: {
              allowPrivilegeEscalation: false,
              capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
            },
          }),
        ],
      }),
      createPod('bad', {
        hostIPC: true,
        hostPID: true,
        securityContext: { runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: 'Unconfined' } },
        volumes: [
          { name: 'h', hostPath: { path: '/tmp' } },
          { name: 'n', nfs: { server: 'x', path: '/' } },
        ],
        containers: [
          container('a', undefined, {
            ports: [{ containerPort: 80, hostPort: 8080 }],
            securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN', 'NET_RAW'] } },
          }),
          container('b', undefined, { securityContext: { runAsNonRoot: false, allowPrivilegeEscalation: true } }),
        ],
      }),
    ],
  },
  {
    key: 'ps-baseline-warn',
    labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' },
    steps: [
      createPod('privileged', { containers: [container('c', undefined, { securityContext: { privileged: true } })] }),
      createPod('plain'),
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/plug-ps-baseline-warn/deployments',
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'd' },
          spec: {
            selector: { matchLabels: { app: 'd' } },
            template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container('c')] } },
          },
        },
      },
    ],
  },
  {
    // The six baseline checks beside the ones above (hostProbesAndHostLifecycle from v1.34 on), and a Pod
    // that sets each field to an allowed value.
    key: 'ps-baseline-checks',
    labels: { 'pod-security.kubernetes.io/enforce': 'baseline' },
    steps: [
      { method: 'POST', path: 'pods', body: PS_BASELINE_BAD },
      { method: 'POST', path: 'pods', body: PS_HOST_PROCESS },
      { method: 'POST', path: 'pods', body: PS_BASELINE_OK },
    ],
  },
  {
    key: 'ps-versions',
    labels: {
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/enforce-version': 'v1.21',
      'pod-security.kubernetes.io/warn': 'baseline',
      'pod-security.kubernetes.io/warn-version': 'v1.99',
    },
    steps: [
      createPod('plain', { securityContext: { runAsNonRoot: true } }),
      createPod('caps', {
        securityContext: { runAsNonRoot: true },
        containers: [
          container('c', undefined, {
            securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['SYS_TIME'] } },
          }),
        ],
      }),
    ],
  },
  {
    key: 'ps-labels',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces',
        body: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: {
            name: 'plug-ps-bad-labels',
            labels: { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': 'v2' },
          },
        },
      },
      { method: 'PUT', path: '/api/v1/namespaces/plug-ps-labels', labels: { 'pod-security.kubernetes.io/audit': 'x' } },
    ],
  },
  {
    key: 'ps-tighten',
    setup: [createPod('a'), createPod('b'), createPod('c', { hostNetwork: true })],
    ready: {
      step: {
        method: 'PUT',
        path: '/api/v1/namespaces/plug-ps-tighten?dryRun=All',
        labels: { 'pod-security.kubernetes.io/enforce': 'baseline' },
      },
      status: 200,
      warned: true,
    },
    steps: [
      {
        method: 'PUT',
        path: '/api/v1/namespaces/plug-ps-tighten',
        labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
      },
    ],
  },
  {
    key: 'default-classes',
    setup: [
      {
        method: 'POST',
        path: '/apis/storage.k8s.io/v1/storageclasses',
        body: {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClass',
          metadata: { name: 'plug-fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
          provisioner: 'example.com/fast',
        },
      },
      {
        method: 'POST',
        path: '/apis/networking.k8s.io/v1/ingressclasses',
        body: {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IngressClass',
          metadata: { name: 'plug-nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
          spec: { controller: 'example.com/ingress' },
        },
      },
    ],
    ready: { step: { ...claim('probe'), path: 'persistentvolumeclaims?dryRun=All' }, status: 201, has: 'plug-fast' },
    steps: [
      claim('a'),
      claim('b', { storageClassName: '' }),
      ingress('i'),
      ingress('j', { ingressClassName: 'other' }),
      { method: 'DELETE', path: '/apis/storage.k8s.io/v1/storageclasses/plug-fast' },
      { method: 'DELETE', path: '/apis/networking.k8s.io/v1/ingressclasses/plug-nginx' },
    ],
  },
  {
    key: 'simple-mutations',
    steps: [
      createPod('a', {
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
        ],
      }),
      createPod('b', { tolerations: [{ operator: 'Exists' }] }),
      createPod('c', {
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }],
      }),
      claim('d'),
      {
        method: 'POST',
        path: '/api/v1/nodes',
        body: {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: 'plug-node' },
          spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] },
        },
      },
      { method: 'DELETE', path: '/api/v1/nodes/plug-node' },
    ],
  },
  {
    key: 'pvc-resize',
    setup: [
      {
        method: 'POST',
        path: '/apis/storage.k8s.io/v1/storageclasses',
        body: {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClass',
          metadata: { name: 'plug-grow' },
          provisioner: 'example.com/grow',
          allowVolumeExpansion: true,
        },
      },
      claim('fixed', { storageClassName: 'plug-none', volumeName: 'pv-fixed' }),
      claim('grow', { storageClassName: 'plug-grow', volumeName: 'pv-grow' }),
      { method: 'PUT', path: 'persistentvolumeclaims/fixed/status', body: { status: { phase: 'Bound' } } },
      { method: 'PUT', path: 'persistentvolumeclaims/grow/status', body: { status: { phase: 'Bound' } } },
    ],
    ready: { step: grow('grow', '2Gi', true), status: 200 },
    steps: [
      grow('fixed', '2Gi'),
      grow('grow', '3Gi'),
      { method: 'DELETE', path: '/apis/storage.k8s.io/v1/storageclasses/plug-grow' },
    ],
  },
  {
    key: 'csr-subject',
    steps: [
      csr('plug-csr-masters', 'kubernetes.io/kube-apiserver-client', '/CN=alice/O=system:masters'),
      csr('plug-csr-plain', 'kubernetes.io/kube-apiserver-client', '/CN=bob/O=developers'),
      csr('plug-csr-other-signer', 'example.com/custom', '/CN=carol/O=system:masters'),
      { method: 'DELETE', path: '/apis/certificates.k8s.io/v1/certificatesigningrequests/plug-csr-plain' },
      { method: 'DELETE', path: '/apis/certificates.k8s.io/v1/certificatesigningrequests/plug-csr-other-signer' },
    ],
  },
  {
    // Last: a globalDefault class applies to every Pod created after it, until deleted.
    key: 'priority-default',
    setup: [priorityClass('plug-default', 77, { globalDefault: true })],
    ready: { step: createPod('probe', { priority: 77 }, true), status: 201 },
    steps: [
      priorityClass('plug-default-2', 78, { globalDefault: true }),
      createPod('a'),
      { method: 'DELETE', path: '/apis/scheduling.k8s.io/v1/priorityclasses/plug-default' },
    ],
  },
];

function absolute(ns: string, path: string): string {
  return path.startsWith('/') ? path : `/api/v1/namespaces/${ns}/${path}`;
}

/** What the plugins decide about an answer: its Status, and the fields they set on what is returned. */
function outcome(r: ApiAnswer): StepOutcome {
  const details = r.body.details as { causes?: unknown } | undefined;
  return {
    status: r.status,
    reason: r.body.reason,
    message: r.body.message,
    causes: details?.causes,
    warnings: r.warnings,
    object: picked(r.body),
  };
}

function picked(body: Json): unknown {
  const meta = (body.metadata ?? {}) as { annotations?: Record<string, string> };
  if (body.kind === 'Pod') {
    const spec = (body.spec ?? {}) as Json;
    const resources = (cs: unknown) => (Array.isArray(cs) ? cs.map((c: Json) => [c.name, c.resources]) : undefined);
    return {
      annotation: meta.annotations?.['kubernetes.io/limit-ranger'],
      containers: resources(spec.containers),
      initContainers: resources(spec.initContainers),
      priority: spec.priority,
      priorityClassName: spec.priorityClassName,
      preemptionPolicy: spec.preemptionPolicy,
      tolerations: spec.tolerations,
    };
  }
  if (body.kind === 'ResourceQuota') return { status: body.status };
  if (body.kind === 'Namespace') return { labels: (body.metadata as Json | undefined)?.labels };
  if (body.kind === 'PersistentVolumeClaim') {
    const spec = body.spec as Json | undefined;
    const finalizers = (body.metadata as Json | undefined)?.finalizers;
    return { resources: spec?.resources, storageClassName: spec?.storageClassName, finalizers };
  }
  if (body.kind === 'Node') return { taints: (body.spec as Json | undefined)?.taints };
  if (body.kind === 'Ingress') return { ingressClassName: (body.spec as Json | undefined)?.ingressClassName };
  return body.kind;
}

async function send(call: ApiCall, ns: string, s: Step): Promise<ApiAnswer> {
  if (s.labels) return call('PUT', absolute(ns, s.path), await withLabels(call, ns, s, s.labels));
  if (s.storage) return call('PUT', absolute(ns, s.path), await withStorage(call, ns, s, s.storage));
  const body = s.body && s.method === 'PUT' && s.path.endsWith('/status') ? await withCurrent(call, ns, s) : s.body;
  return call(s.method, absolute(ns, s.path), body);
}

async function withStorage(call: ApiCall, ns: string, s: Step, storage: string): Promise<Json> {
  const current = (await call('GET', absolute(ns, s.path.replace(/\?.*$/, '')))).body;
  const spec = (current.spec ?? {}) as Json;
  return { ...current, spec: { ...spec, resources: { requests: { storage } } } };
}

async function withLabels(call: ApiCall, ns: string, s: Step, labels: Record<string, string>): Promise<Json> {
  const current = (await call('GET', absolute(ns, s.path.replace(/\?.*$/, '')))).body;
  const meta = (current.metadata ?? {}) as Json;
  return { ...current, metadata: { ...meta, labels: { ...((meta.labels ?? {}) as Json), ...labels } } };
}

/** A status write carries the object it replaces (its metadata and spec as stored). */
async function withCurrent(call: ApiCall, ns: string, s: Step): Promise<Json> {
  const current = await call('GET', absolute(ns, s.path.replace(/\/status$/, '')));
  return { ...current.body, ...s.body };
}

export async function runPluginCase(call: ApiCall, c: PluginCase): Promise<StepOutcome[]> {
  const ns = `plug-${c.key}`;
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: c.labels ?? {} } };
  const made = await call('POST', '/api/v1/namespaces', namespace);
  if (made.status !== 201) throw new Error(`namespace ${ns}: ${made.status} ${JSON.stringify(made.body)}`);
  for (const s of c.setup ?? []) {
    const r = await send(call, ns, s);
    if (r.status >= 300) throw new Error(`${c.key} setup ${s.method} ${s.path}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const ready = c.ready;
  if (ready) {
    const answered = (r: ApiAnswer) =>
      r.status === ready.status &&
      (ready.warned === undefined || r.warnings.length > 0 === ready.warned) &&
      (ready.has === undefined || JSON.stringify(r.body).includes(ready.has));
    await waitFor(async () => answered(await send(call, ns, ready.step)), {
      what: `${c.key}: its objects in force`,
      timeoutMs: 30_000,
      intervalMs: 200,
    });
  }
  const out: StepOutcome[] = [];
  for (const s of c.steps) out.push(outcome(await send(call, ns, s)));
  return out;
}
