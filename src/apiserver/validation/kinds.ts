// Which per-kind validation (each file cites its upstream ValidateX / ValidateXUpdate) a built-in
// kind's write passes, beside ObjectMeta's and the selectors' (objects/builtin-validation.ts).
import type { JsonObject, ResourceType } from '../registry/types.js';
import { invalid } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { appsCauses, controllerRevisionCauses, deploymentStatusCauses, replicaSetStatusCauses } from './apps.js';
import { apiServiceCauses } from './apiservice.js';
import { hpaCauses } from './autoscaling.js';
import { certificateCauses, csrCauses } from './certificates.js';
import { endpointsCauses } from './endpoints.js';
import { endpointSliceCauses } from './endpoint-slices.js';
import { resourceClaimCauses, resourceClaimTemplateCauses } from './resource-claims.js';
import { persistentVolumeCauses } from './volumes.js';
import { persistentVolumeClaimCauses, persistentVolumeClaimStatusCauses } from './persistent-volume-claims.js';
import { flowSchemaCauses, priorityLevelCauses } from './flowcontrol.js';
import { policyBindingCauses } from './policy-binding.js';
import { admissionPolicyCauses } from './admission-policy.js';
import { webhookConfigurationCauses } from './webhook-configurations.js';
import { podDisruptionBudgetCauses } from './policy.js';
import { cronJobCauses, jobCauses } from './batch.js';
import { jobStatusCauses } from './job-status.js';
import { priorityClassCauses, runtimeClassCauses } from './classes.js';
import { podTemplateCauses, replicationControllerCauses, replicationControllerStatusCauses } from './core-templates.js';
import { ingressCauses, ingressClassCauses, ipAddressCauses, serviceCidrCauses } from './networking.js';
import { bindingCauses, roleCauses } from './rbac.js';
import {
  csiStorageCapacityCauses,
  storageClassCauses,
  volumeAttachmentCauses,
  volumeAttributesClassCauses,
} from './storage.js';
import { leaseCauses } from './lease.js';
import { limitRangeCauses } from './limit-range.js';
import { statefulSetStatusCauses } from './statefulset.js';
import { nodeCauses, nodeUpdateCauses } from './node.js';
import { resourceQuotaCauses, resourceQuotaStatusCauses } from './resource-quota.js';
import { csiDriverCauses, csiNodeCauses } from './csi.js';
import { resourceSliceCauses } from './resource-slices.js';
import { eventCauses } from './events.js';
import { objectAt } from './pod-spec.js';
import { podCauses } from './pod.js';
import { podStatusCauses } from './pod-status.js';
import { serviceCauses } from './service.js';

export function kindValidationCauses(t: ResourceType, obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  switch (`${t.group}/${t.kind}`) {
    case '/Pod':
      return podCauses(obj, old);
    case '/Service':
      return serviceCauses(obj, old);
    case '/LimitRange':
      return limitRangeCauses(obj);
    case '/Node':
      return nodeCauses(obj, old);
    case '/ResourceQuota':
      return resourceQuotaCauses(obj, old);
    case 'apps/Deployment':
    case 'apps/ReplicaSet':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
      return appsCauses(t.kind, obj, old);
    case 'batch/Job':
      return jobCauses(obj, old);
    case '/Event':
      return eventCauses(obj, old, false);
    case 'events.k8s.io/Event':
      return eventCauses(obj, old, true);
    case 'coordination.k8s.io/Lease':
      return leaseCauses(obj);
    case 'apiregistration.k8s.io/APIService':
      return apiServiceCauses(obj);
    case 'resource.k8s.io/ResourceClaim':
      return resourceClaimCauses(obj, old);
    case 'resource.k8s.io/ResourceSlice':
      return resourceSliceCauses(obj, old);
    case 'resource.k8s.io/ResourceClaimTemplate':
      return resourceClaimTemplateCauses(obj, old);
    case '/PersistentVolume':
      return persistentVolumeCauses(obj, old);
    case '/PersistentVolumeClaim':
      return persistentVolumeClaimCauses(obj, old);
    case '/Endpoints':
      return endpointsCauses(obj);
    case 'discovery.k8s.io/EndpointSlice':
      return endpointSliceCauses(obj, old);
    case 'autoscaling/HorizontalPodAutoscaler':
      return hpaCauses(obj);
    case 'apps/ControllerRevision':
      return controllerRevisionCauses(obj, old);
    case 'certificates.k8s.io/CertificateSigningRequest':
      return csrCauses(obj);
    case 'flowcontrol.apiserver.k8s.io/FlowSchema':
      return flowSchemaCauses(obj);
    case 'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration':
      return priorityLevelCauses(obj);
    case 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding':
      return policyBindingCauses(obj);
    case 'admissionregistration.k8s.io/ValidatingAdmissionPolicy':
      return admissionPolicyCauses(obj);
    case 'admissionregistration.k8s.io/ValidatingWebhookConfiguration':
      return webhookConfigurationCauses(obj, old, false);
    case 'admissionregistration.k8s.io/MutatingWebhookConfiguration':
      return webhookConfigurationCauses(obj, old, true);
    case 'policy/PodDisruptionBudget':
      return podDisruptionBudgetCauses(obj);
    case '/PodTemplate':
      return podTemplateCauses(obj);
    case '/ReplicationController':
      return replicationControllerCauses(obj);
    case 'batch/CronJob':
      return cronJobCauses(obj, old);
    case 'networking.k8s.io/Ingress':
      return ingressCauses(obj);
    case 'networking.k8s.io/IngressClass':
      return ingressClassCauses(obj, old);
    case 'networking.k8s.io/IPAddress':
      return ipAddressCauses(obj, old);
    case 'networking.k8s.io/ServiceCIDR':
      return serviceCidrCauses(obj, old);
    case 'storage.k8s.io/StorageClass':
      return storageClassCauses(obj, old);
    case 'storage.k8s.io/VolumeAttachment':
      return volumeAttachmentCauses(obj, old);
    case 'storage.k8s.io/CSIDriver':
      return csiDriverCauses(obj, old);
    case 'storage.k8s.io/CSINode':
      return csiNodeCauses(obj, old);
    case 'storage.k8s.io/CSIStorageCapacity':
      return csiStorageCapacityCauses(obj, old);
    case 'storage.k8s.io/VolumeAttributesClass':
      return volumeAttributesClassCauses(obj, old);
    case 'scheduling.k8s.io/PriorityClass':
      return priorityClassCauses(obj, old);
    case 'node.k8s.io/RuntimeClass':
      return runtimeClassCauses(obj, old);
    case 'rbac.authorization.k8s.io/Role':
      return roleCauses(obj, true);
    case 'rbac.authorization.k8s.io/ClusterRole':
      return roleCauses(obj, false);
    case 'rbac.authorization.k8s.io/RoleBinding':
      return bindingCauses(obj, old, true);
    case 'rbac.authorization.k8s.io/ClusterRoleBinding':
      return bindingCauses(obj, old, false);
    default:
      return [];
  }
}

/** A write to the status subresource: ValidateXStatusUpdate, where this server has it. */
export function statusValidationCauses(t: ResourceType, obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  if (t.group === 'batch' && t.kind === 'Job') return jobStatusCauses(obj, old);
  if (t.group === '' && t.kind === 'PersistentVolumeClaim') return persistentVolumeClaimStatusCauses(obj);
  if (t.group === 'apps' && t.kind === 'Deployment') return deploymentStatusCauses(objectAt(obj, 'status'));
  if (t.group === 'apps' && t.kind === 'ReplicaSet') return replicaSetStatusCauses(objectAt(obj, 'status'));
  if (t.group === '' && t.kind === 'ReplicationController') return replicationControllerStatusCauses(obj);
  if (t.group === 'certificates.k8s.io' && t.kind === 'CertificateSigningRequest') return certificateCauses(obj);
  if (t.group === '' && t.kind === 'Namespace') return namespaceStatusCauses(obj);
  if (t.group === '' && t.kind === 'ResourceQuota') return resourceQuotaStatusCauses(obj);
  if (t.group === 'apps' && t.kind === 'StatefulSet') return statefulSetStatusCauses(obj, old);
  if (t.group === '' && t.kind === 'Pod') return podStatusCauses(obj, old);
  if (t.group === '' && t.kind === 'Node' && old) return nodeUpdateCauses(obj, old);
  return [];
}

/** ValidateNamespaceStatusUpdate: the phase follows the deletion timestamp (the path's capital P is upstream's). */
function namespaceStatusCauses(obj: JsonObject): FieldCause[] {
  const phase = objectAt(obj, 'status').phase;
  const shown = typeof phase === 'string' ? phase : '';
  const deleting = objectAt(obj, 'metadata').deletionTimestamp != null;
  if (!deleting && shown !== 'Active')
    return [invalid('status.Phase', shown, "may only be 'Active' if `deletionTimestamp` is empty")];
  if (deleting && shown !== 'Terminating')
    return [invalid('status.Phase', shown, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  return [];
}
