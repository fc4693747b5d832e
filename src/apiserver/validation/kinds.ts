// Which per-kind validation (each file cites its upstream ValidateX / ValidateXUpdate) a built-in
// kind's write passes, beside ObjectMeta's and the selectors' (objects/builtin-validation.ts).
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { FieldCause } from '../schema/types.js';
import { appsCauses, deploymentStatusCauses } from './apps.js';
import { jobCauses } from './batch.js';
import { leaseCauses } from './lease.js';
import { objectAt } from './pod-spec.js';
import { podCauses } from './pod.js';
import { serviceCauses } from './service.js';

export function kindValidationCauses(t: ResourceType, obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  switch (`${t.group}/${t.kind}`) {
    case '/Pod':
      return podCauses(obj, old);
    case '/Service':
      return serviceCauses(obj, old);
    case 'apps/Deployment':
    case 'apps/ReplicaSet':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
      return appsCauses(t.kind, obj, old);
    case 'batch/Job':
      return jobCauses(obj, old);
    case 'coordination.k8s.io/Lease':
      return leaseCauses(obj);
    default:
      return [];
  }
}

/** A write to the status subresource: ValidateXStatusUpdate, where this server has it. */
export function statusValidationCauses(t: ResourceType, obj: JsonObject): FieldCause[] {
  if (t.group === 'apps' && (t.kind === 'Deployment' || t.kind === 'ReplicaSet'))
    return deploymentStatusCauses(objectAt(obj, 'status'));
  return [];
}
