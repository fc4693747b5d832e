import { dropEmptyMetadataFields } from '../objects/meta.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';

/**
 * What kube-apiserver's Go types always encode even when nobody set them: struct fields (which
 * `omitempty` does not drop) and the scalars without `omitempty`, as `json.Marshal` of the zero
 * value of each kind writes them (k8s.io/api v0.34). Two uses:
 *  - a stored object has them filled in where missing (so `status: {}` shows, as on a real server);
 *  - they are the "before" of a create for field ownership: the real field manager compares the new
 *    object with the typed zero value, so a struct that exists there is not itself "added" and
 *    gets no `".": {}` in managedFields, only its children do.
 * `null` marks a field encoded as null (a nil slice or time without omitempty).
 */
const POD_TEMPLATE = { metadata: {}, spec: { containers: [] } };
const LOAD_BALANCER_STATUS = { loadBalancer: {} };

const ZERO_VALUES: Record<string, JsonObject> = {
  '/v1/Namespace': { spec: {}, status: {} },
  'resource.k8s.io/v1/ResourceClaim': { spec: { devices: {} }, status: {} },
  '/v1/Service': { spec: {}, status: LOAD_BALANCER_STATUS },
  '/v1/Pod': { spec: { containers: [] }, status: {} },
  '/v1/Event': {
    involvedObject: {},
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  },
  '/v1/PersistentVolumeClaim': { spec: { resources: {} }, status: {} },
  '/v1/PersistentVolume': { spec: {}, status: {} },
  '/v1/Node': {
    spec: {},
    status: {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '',
        osImage: '',
        containerRuntimeVersion: '',
        kubeletVersion: '',
        kubeProxyVersion: '',
        operatingSystem: '',
        architecture: '',
      },
    },
  },
  '/v1/LimitRange': { spec: { limits: [] } },
  '/v1/ResourceQuota': { spec: {}, status: {} },
  'apps/v1/Deployment': { spec: { selector: {}, template: POD_TEMPLATE, strategy: {} }, status: {} },
  'apps/v1/StatefulSet': {
    spec: { selector: {}, template: POD_TEMPLATE, serviceName: '', updateStrategy: {} },
    status: { replicas: 0, availableReplicas: 0 },
  },
  'apps/v1/DaemonSet': {
    spec: { selector: {}, template: POD_TEMPLATE, updateStrategy: {} },
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  },
  'apps/v1/ReplicaSet': { spec: { selector: {}, template: POD_TEMPLATE }, status: { replicas: 0 } },
  'apps/v1/ControllerRevision': { data: null, revision: 0 },
  'batch/v1/Job': { spec: { template: POD_TEMPLATE }, status: {} },
  'batch/v1/CronJob': {
    spec: { schedule: '', jobTemplate: { metadata: {}, spec: { template: POD_TEMPLATE } } },
    status: {},
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 },
    status: { desiredReplicas: 0, currentMetrics: null },
  },
  'policy/v1/PodDisruptionBudget': {
    spec: {},
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  },
  'networking.k8s.io/v1/Ingress': { spec: {}, status: LOAD_BALANCER_STATUS },
  'networking.k8s.io/v1/NetworkPolicy': { spec: { podSelector: {} } },
  'coordination.k8s.io/v1/Lease': { spec: {} },
  'scheduling.k8s.io/v1/PriorityClass': { value: 0 },
  'rbac.authorization.k8s.io/v1/Role': { rules: [] },
  'rbac.authorization.k8s.io/v1/ClusterRole': { rules: [] },
  'rbac.authorization.k8s.io/v1/RoleBinding': { roleRef: { apiGroup: '', kind: '', name: '' } },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { roleRef: { apiGroup: '', kind: '', name: '' } },
};

/**
 * Fields of the zero values that are not filled into stored objects: required fields a client
 * always sends. Their zero value is written as the empty list or map that the field manager's
 * comparison treats as present but empty.
 */
const NOT_FILLED = new Set(['containers', 'selector', 'limits', 'rules', 'data']);

export function zeroValueOf(t: Pick<ResourceType, 'group' | 'version' | 'kind' | 'custom'>): JsonObject | undefined {
  if (t.custom) return undefined;
  const zero = ZERO_VALUES[`${t.group}/${t.version}/${t.kind}`];
  return zero ? structuredClone(zero) : undefined;
}

/** Fills in, in place, what the kind's Go type always encodes and `obj` lacks, and drops what it never encodes empty. */
export function fillZeroValues(t: Pick<ResourceType, 'group' | 'version' | 'kind' | 'custom'>, obj: JsonObject): void {
  const zero = zeroValueOf(t);
  if (zero) fill(obj, zero);
  const spec = obj.spec;
  if (!isObject(spec)) return;
  // The ObjectMeta of pod and job templates is as `omitempty` as the object's own.
  const templates = [spec.template, isObject(spec.jobTemplate) ? spec.jobTemplate : undefined];
  const jobSpec = isObject(spec.jobTemplate) ? spec.jobTemplate.spec : undefined;
  if (isObject(jobSpec)) templates.push(jobSpec.template);
  for (const template of templates) if (isObject(template)) dropEmptyMetadataFields(template.metadata);
}

function fill(target: JsonObject, zero: JsonObject): JsonObject {
  for (const [k, z] of Object.entries(zero)) {
    const have = target[k];
    if (NOT_FILLED.has(k)) continue;
    if (isObject(z)) {
      if (have === undefined) target[k] = fill({}, z);
      else if (isObject(have)) fill(have, z);
    } else if (have === undefined) {
      target[k] = z;
    }
  }
  return target;
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
