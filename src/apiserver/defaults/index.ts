import type { Admission, Operation } from '../objects/object-store.js';
import { type JsonObject, type ResourceType, storageKey } from '../registry/types.js';
import { deepEqual } from '../objects/meta.js';
import { existingAt, existingObject } from './fields.js';
import {
  defaultDaemonSet,
  defaultDeployment,
  defaultReplicaSet,
  defaultStatefulSet,
  dropDisabledStatefulSetFields,
} from './apps-v1.js';
import { defaultCronJob, defaultJob } from './batch-v1.js';
import {
  defaultEndpoints,
  defaultNamespace,
  defaultPersistentVolume,
  defaultPersistentVolumeClaim,
  defaultPodTemplate,
  defaultReplicationController,
  defaultSecret,
} from './core-v1.js';
import {
  defaultCSIDriver,
  defaultEndpointSlice,
  defaultStorageClass,
  dropDisabledCSIDriverFields,
} from './discovery-storage-v1.js';
import { defaultPod } from './pod.js';
import { defaultRoleBinding } from './rbac-v1.js';
import { defaultIngressClass } from './networking-v1.js';
import { defaultService } from './service.js';
import type { ServiceAllocator } from './service-allocator.js';
import { fillZeroValues } from './zero-values.js';
import { dropDisabledPodFields } from './disabled-pod-fields.js';
import { defaultNode, syncPodIPs } from './core-v1-conversion.js';

export { DefaultAdmissionPlugins } from './admission-plugins.js';
import {
  defaultHorizontalPodAutoscalerV1,
  defaultFlowSchema,
  defaultPriorityLevelConfiguration,
  defaultCustomResourceDefinition,
  defaultHorizontalPodAutoscaler,
  dropDisabledClaimFields,
  dropDisabledHpaFields,
  defaultLimitRange,
  defaultNetworkPolicy,
  defaultPriorityClass,
  defaultResourceClaim,
  defaultResourceClaimTemplate,
} from './other-groups.js';

/** Defaults one kind's object in place; pure: the same object in, the same object out. */
export type Defaulter = (obj: JsonObject, op: Operation) => void;

/** Keyed by `group/version/kind` ("" for core): each built-in kind served that has SetDefaults_*. */
const DEFAULTERS: Record<string, Defaulter> = {
  '/v1/Namespace': defaultNamespace,
  '/v1/Secret': defaultSecret,
  '/v1/Service': defaultService,
  '/v1/Pod': defaultPod,
  '/v1/PodTemplate': defaultPodTemplate,
  '/v1/ReplicationController': defaultReplicationController,
  '/v1/PersistentVolumeClaim': defaultPersistentVolumeClaim,
  '/v1/PersistentVolume': defaultPersistentVolume,
  '/v1/Endpoints': defaultEndpoints,
  'apps/v1/Deployment': defaultDeployment,
  'apps/v1/StatefulSet': defaultStatefulSet,
  'apps/v1/DaemonSet': defaultDaemonSet,
  'apps/v1/ReplicaSet': defaultReplicaSet,
  'batch/v1/Job': defaultJob,
  'batch/v1/CronJob': defaultCronJob,
  '/v1/LimitRange': defaultLimitRange,
  'autoscaling/v2/HorizontalPodAutoscaler': defaultHorizontalPodAutoscaler,
  'autoscaling/v1/HorizontalPodAutoscaler': defaultHorizontalPodAutoscalerV1,
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': defaultFlowSchema,
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': defaultPriorityLevelConfiguration,
  'networking.k8s.io/v1/NetworkPolicy': defaultNetworkPolicy,
  'scheduling.k8s.io/v1/PriorityClass': defaultPriorityClass,
  'apiextensions.k8s.io/v1/CustomResourceDefinition': defaultCustomResourceDefinition,
  'discovery.k8s.io/v1/EndpointSlice': defaultEndpointSlice,
  'resource.k8s.io/v1/ResourceClaim': defaultResourceClaim,
  'resource.k8s.io/v1/ResourceClaimTemplate': defaultResourceClaimTemplate,
  'storage.k8s.io/v1/StorageClass': defaultStorageClass,
  'storage.k8s.io/v1/CSIDriver': defaultCSIDriver,
  'networking.k8s.io/v1/IngressClass': defaultIngressClass,
  'rbac.authorization.k8s.io/v1/RoleBinding': defaultRoleBinding,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': defaultRoleBinding,
};

/**
 * daemonSetStrategy.PrepareForUpdate: an update may not set spec.templateGeneration (apps/v1's
 * deprecated.daemonset.template.generation annotation), which is the stored one, one more when the
 * template changes; the v1 conversion writes it back only when it is not zero.
 */
function nextTemplateGeneration(obj: JsonObject, old: JsonObject): void {
  const key = 'deprecated.daemonset.template.generation';
  const was = Number.parseInt(String(existingAt(old, 'metadata', 'annotations')?.[key] ?? '0'), 10) || 0;
  const changed = !deepEqual(existingAt(obj, 'spec', 'template'), existingAt(old, 'spec', 'template'));
  const generation = changed ? was + 1 : was;
  const meta = obj.metadata as JsonObject;
  const annotations = existingObject(meta, 'annotations') ?? {};
  if (generation) annotations[key] = String(generation);
  else delete annotations[key];
  if (Object.keys(annotations).length) meta.annotations = annotations;
  else delete meta.annotations;
}

export function defaulterFor(t: Pick<ResourceType, 'group' | 'version' | 'kind'>): Defaulter | undefined {
  const key = `${t.group}/${t.version}/${t.kind}`;
  return Object.hasOwn(DEFAULTERS, key) ? DEFAULTERS[key] : undefined;
}

/**
 * kube-apiserver defaults a built-in object when it decodes a request body (the generated
 * SetDefaults_* functions), so creates, updates, patches and server-side applies all store
 * defaulted objects. Here that is one admission step on the object about to be stored, after the
 * strategy has resolved generateName and reset what the server owns. What a Service's REST storage
 * allocates is ServiceAllocation's, a storage step after the field manager.
 */
export class BuiltinDefaulting implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject, old?: JsonObject): void {
    if (t.custom || op === 'DELETE') return;
    fillZeroValues(t, obj);
    dropDisabledPodFields(t, obj, old);
    if (!t.group && t.kind === 'Node') defaultNode(obj);
    if (!t.group && t.kind === 'Pod') syncPodIPs(obj);
    if (t.group === 'storage.k8s.io' && t.kind === 'CSIDriver') dropDisabledCSIDriverFields(obj, old);
    defaulterFor(t)?.(obj, op);
    if (t.group === 'autoscaling' && t.kind === 'HorizontalPodAutoscaler') dropDisabledHpaFields(obj, old);
    if (t.group === 'apps' && t.kind === 'StatefulSet') dropDisabledStatefulSetFields(obj, old);
    if (t.group === 'resource.k8s.io' && (t.kind === 'ResourceClaim' || t.kind === 'ResourceClaimTemplate'))
      dropDisabledClaimFields(t.kind, obj, old);
    if (old && t.group === 'apps' && t.kind === 'DaemonSet') nextTemplateGeneration(obj, old);
  }
}

/** A Service's cluster IPs, allocated by its REST storage (a storage step: after the field manager). */
export class ServiceAllocation implements Admission {
  constructor(private readonly services: ServiceAllocator) {}

  admit(t: ResourceType, op: Operation, obj: JsonObject, old: JsonObject | undefined): void {
    if (t.custom || op === 'DELETE' || t.group !== '' || t.kind !== 'Service') return;
    const meta = obj.metadata as JsonObject;
    this.services.allocate(t, storageKey(t, String(meta.namespace), String(meta.name)), op, obj, old);
  }
}
