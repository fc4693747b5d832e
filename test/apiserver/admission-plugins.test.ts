import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubeconfigCall } from '../helpers/kube-http.js';
import type { ApiCall } from './admission/webhook-cases.js';
import { PLUGIN_CASES, runPluginCase, type StepOutcome } from './admission/plugin-cases.js';

// The built-in admission plugins on the embedded server, over HTTP: the answers kube-apiserver
// 1.34.4 gives to the same cases (test/real/admission-plugins.test.ts compares them side by side).

let server: TestServer;
let call: ApiCall;
const results = new Map<string, StepOutcome[]>();
beforeAll(async () => {
  server = await startTestServer();
  call = kubeconfigCall(server.kubeconfig);
  for (const c of PLUGIN_CASES) results.set(c.key, await runPluginCase(call, c));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const steps = (key: string): StepOutcome[] => {
  const r = results.get(key);
  if (!r) throw new Error(`no case ${key}`);
  return r;
};
const answers = (key: string) => steps(key).map((s) => [s.status, s.message ?? null]);
const object = (key: string, i: number) => steps(key)[i]?.object as Record<string, unknown>;

it('LimitRanger: Container defaults fill what each container lacks, noted in the annotation', () => {
  expect(answers('lr-defaults')).toEqual([[201, null]]);
  expect(object('lr-defaults', 0)).toMatchObject({
    annotation:
      'LimitRanger plugin set: memory request for container a; cpu, memory limit for container a; ' +
      'cpu request for container b; cpu limit for container b; cpu, memory request for init container init; ' +
      'cpu, memory limit for init container init',
    containers: [
      ['a', { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } }],
      ['b', { limits: { memory: '128Mi', cpu: '500m' }, requests: { memory: '128Mi', cpu: '100m' } }],
    ],
  });
});

it('LimitRanger: min, max, maxLimitRequestRatio for containers, Pods and claims, in upstream words', () => {
  const no = (name: string, why: string, resource = 'pods') => [403, `${resource} "${name}" is forbidden: ${why}`];
  expect(answers('lr-max')).toEqual([no('p', 'maximum cpu usage per Container is 1, but limit is 2')]);
  expect(answers('lr-max-no-limit')).toEqual([
    [201, null],
    no('q', 'maximum memory usage per Container is 1Gi, but limit is 2Gi'),
  ]);
  expect(answers('lr-min')).toEqual([
    no('p', 'minimum memory usage per Container is 100Mi, but request is 50Mi'),
    [201, null],
  ]);
  expect(answers('lr-ratio')).toEqual([
    no('p', 'cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000'),
    [201, null],
  ]);
  expect(answers('lr-pod-max')).toEqual([no('p', 'maximum memory usage per Pod is 1Gi, but limit is 1200Mi')]);
  expect(answers('lr-pvc')).toEqual([
    no('big', 'maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 2Gi', 'persistentvolumeclaims'),
  ]);
});

it('ResourceQuota: charges status.used on admission, refuses beyond status.hard, not for dry runs', () => {
  expect(answers('quota-pods')).toEqual([
    [201, null],
    [200, null],
    [403, 'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1'],
    [200, null],
  ]);
  expect(object('quota-pods', 1)).toEqual({
    status: { hard: { pods: '1', 'requests.cpu': '1' }, used: { pods: '1', 'requests.cpu': '100m' } },
  });
  expect(object('quota-dry-run', 1)).toEqual({
    status: { hard: { pods: '1', 'requests.cpu': '1' }, used: { pods: '0', 'requests.cpu': '0' } },
  });
  expect(answers('quota-count')[1]).toEqual([
    403,
    'secrets "b" is forbidden: exceeded quota: q, requested: count/secrets=1, used: count/secrets=1, ' +
      'limited: count/secrets=1',
  ]);
  expect(object('quota-cpu-exceeded', 2)).toEqual({
    status: {
      hard: { 'requests.cpu': '1', 'limits.memory': '1Gi' },
      used: { 'requests.cpu': '500m', 'limits.memory': '512Mi' },
    },
  });
});

it('ResourceQuota: unknown usage, missing container requests, exceeded compute, scopes', () => {
  expect(answers('quota-unknown')).toEqual([
    [403, 'configmaps "a" is forbidden: status unknown for quota: q, resources: configmaps'],
  ]);
  expect(answers('quota-cpu-required')).toEqual([
    [403, 'pods "p" is forbidden: failed quota: q: must specify requests.cpu for: c'],
  ]);
  expect(answers('quota-cpu-exceeded').slice(0, 2)).toEqual([
    [
      403,
      'pods "p" is forbidden: exceeded quota: q, requested: requests.cpu=1500m, used: requests.cpu=0, ' +
        'limited: requests.cpu=1',
    ],
    [201, null],
  ]);
  expect(answers('quota-scope')).toEqual([
    [201, null],
    [403, 'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0'],
  ]);
});

it('Priority: classes resolve to priority and preemptionPolicy, mismatches and unknown classes are refused', () => {
  const computed = (name: string, what: string) =>
    `pods "${name}" is forbidden: ${what} must not be provided in pod spec; priority admission controller computed`;
  const lower = 'PreemptLowerPriority from the given PriorityClass name';
  expect(answers('priority-class').map(([s]) => s)).toEqual([201, 201, 201, 403, 403, 201]);
  expect(object('priority-class', 1)).toMatchObject({ priority: 10, preemptionPolicy: 'Never' });
  expect(object('priority-class', 5)).toMatchObject({
    priority: 2000000000,
    priorityClassName: 'system-cluster-critical',
  });
  expect(answers('priority-none')).toEqual([
    [201, null],
    [403, 'pods "b" is forbidden: no PriorityClass with name nope was found'],
    [403, `${computed('c', 'the integer value of priority (5)')} 0 from the given PriorityClass name`],
    [403, `${computed('d', 'the string value of PreemptionPolicy (Never)')} ${lower}`],
    [403, `${computed('e', 'the string value of PreemptionPolicy (Bogus)')} ${lower}`],
  ]);
  expect(answers('priority-default').slice(0, 2)).toEqual([
    [
      403,
      'priorityclasses.scheduling.k8s.io "plug-default-2" is forbidden: ' +
        'PriorityClass plug-default is already marked as default. Only one default can exist',
    ],
    [201, null],
  ]);
  expect(object('priority-default', 1)).toMatchObject({ priority: 77, priorityClassName: 'plug-default' });
});

it('RuntimeClass and NamespaceLifecycle refuse in their words', () => {
  expect(answers('runtime-class')).toEqual([
    [403, 'pods "a" is forbidden: pod rejected: RuntimeClass "nope" not found'],
  ]);
  expect(answers('namespace-lifecycle')).toEqual([
    [404, 'namespaces "plug-missing" not found'],
    [403, 'namespaces "kube-system" is forbidden: this namespace may not be deleted'],
    [403, 'namespaces "default" is forbidden: this namespace may not be deleted'],
  ]);
});

it('PodSecurity: the enforce level refuses, the warn level warns on Pods and pod templates', () => {
  const restricted = answers('ps-restricted');
  expect(restricted.map(([s]) => s)).toEqual([403, 201, 403]);
  expect(restricted[0]?.[1]).toBe(
    'pods "plain" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false ' +
      '(containers "init", "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities ' +
      '(containers "init", "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true ' +
      '(pod or containers "init", "c" must set securityContext.runAsNonRoot=true), seccompProfile ' +
      '(pod or containers "init", "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
  expect(restricted[2]?.[1]).toContain(
    'restricted volume types (volumes "h", "n" use restricted volume types "hostPath", "nfs"), ' +
      'runAsNonRoot != true (pod and container "b" must not set securityContext.runAsNonRoot=false)',
  );
  const warned = steps('ps-baseline-warn');
  expect(warned.map((s) => s.status)).toEqual([403, 201, 201]);
  for (const s of warned.slice(1)) {
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toContain(
      'would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false',
    );
  }
});

it('PodSecurity: AppArmor, probe and lifecycle hosts, procMount, SELinux, sysctls and hostProcess', () => {
  const violates = 'is forbidden: violates PodSecurity "baseline:latest":';
  expect(answers('ps-baseline-checks')).toEqual([
    [
      403,
      `pods "bad" ${violates} forbidden AppArmor profiles (pod and annotation must not set AppArmor profile type ` +
        'to "Unconfined", "container.apparmor.security.beta.kubernetes.io/a="unconfined""), probe or lifecycle ' +
        'host (containers "a", "b" use probe or lifecycle hosts "10.0.0.1", "evil"), procMount (container "a" ' +
        'must not set securityContext.procMount to "Unmasked"), seLinuxOptions (pod and container "a" set ' +
        'forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set), ' +
        'forbidden sysctls (kernel.msgmax)',
    ],
    [
      403,
      `pods "bad2" ${violates} host namespaces (hostNetwork=true), hostProcess (pod and container "w" must not ` +
        'set securityContext.windowsOptions.hostProcess=true)',
    ],
    [201, null],
  ]);
});

it('PodSecurity: versions, invalid labels, and a tightened namespace warns about its Pods', () => {
  expect(answers('ps-versions')[1]?.[1]).toBe(
    'pods "caps" is forbidden: violates PodSecurity "restricted:v1.21": non-default capabilities ' +
      '(container "c" must not include "SYS_TIME" in securityContext.capabilities.add), seccompProfile ' +
      '(pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
  const labels = steps('ps-labels');
  expect(labels.map((s) => s.status)).toEqual([422, 422]);
  expect(labels[1]?.causes).toEqual([
    {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "x": must be one of privileged, baseline, restricted',
      field: 'metadata.labels[pod-security.kubernetes.io/audit]',
    },
  ]);
  expect(steps('ps-tighten')[0]?.warnings).toEqual([
    '299 - "existing pods in namespace \\"plug-ps-tighten\\" violate the new PodSecurity enforce level ' +
      '\\"restricted:latest\\""',
    '299 - "a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, ' +
      'seccompProfile"',
    '299 - "c: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, ' +
      'seccompProfile"',
  ]);
});

it('DefaultStorageClass and DefaultIngressClass name the default class when the object names none', () => {
  const r = steps('default-classes');
  expect(r.map((s) => s.status)).toEqual([201, 201, 201, 201, 200, 200]);
  const resources = { requests: { storage: '1Gi' } };
  expect(r.slice(0, 4).map((s) => s.object)).toEqual([
    { resources, storageClassName: 'plug-fast', finalizers: ['kubernetes.io/pvc-protection'] },
    { resources, storageClassName: '', finalizers: ['kubernetes.io/pvc-protection'] },
    { ingressClassName: 'plug-nginx' },
    { ingressClassName: 'other' },
  ]);
});

it('DefaultTolerationSeconds, StorageObjectInUseProtection and TaintNodesByCondition add what upstream adds', () => {
  const r = steps('simple-mutations');
  expect(r.map((s) => s.status)).toEqual([201, 201, 201, 201, 201, 200]);
  const unreachable = {
    key: 'node.kubernetes.io/unreachable',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  };
  const notReady = { ...unreachable, key: 'node.kubernetes.io/not-ready' };
  expect(object('simple-mutations', 0).tolerations).toEqual([{ ...notReady, tolerationSeconds: 10 }, unreachable]);
  expect(object('simple-mutations', 1).tolerations).toEqual([{ operator: 'Exists' }]);
  expect(object('simple-mutations', 2).tolerations).toEqual([
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' },
    notReady,
    unreachable,
  ]);
  expect(object('simple-mutations', 3).finalizers).toEqual(['kubernetes.io/pvc-protection']);
  expect(object('simple-mutations', 4).taints).toEqual([
    { key: 'k', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  ]);
});

it('PersistentVolumeClaimResize: a bound claim grows only when its class allows expansion', () => {
  expect(answers('pvc-resize')).toEqual([
    [
      403,
      'persistentvolumeclaims "fixed" is forbidden: only dynamically provisioned pvc can be resized and ' +
        'the storageclass that provisions the pvc must support resize',
    ],
    [200, null],
    [200, null],
  ]);
});

it('CertificateSubjectRestriction: the kube-apiserver-client signer is refused the system:masters group', () => {
  expect(answers('csr-subject').slice(0, 3)).toEqual([
    [
      403,
      'certificatesigningrequests.certificates.k8s.io "plug-csr-masters" is forbidden: ' +
        'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    ],
    [201, null],
    [201, null],
  ]);
});
