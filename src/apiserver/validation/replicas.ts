import { errors, type StatusCause } from '../http/status.js';
import type { Admission, Operation } from '../objects/object-store.js';
import { metadataOf } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';

/** The built-in kinds with `spec.replicas` (what the scale subresource writes). */
const WITH_REPLICAS = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/ReplicaSet', '/ReplicationController']);

/**
 * kube-apiserver's ValidateNonnegativeField on `spec.replicas` (pkg/apis/apps/validation,
 * pkg/apis/core/validation): a negative count is a 422 naming the field, on the object as on its
 * Scale (whose own check in scale.ts answers first, as Scale.autoscaling).
 */
export class ReplicasValidation implements Admission {
  admit(t: ResourceType, _op: Operation, obj: JsonObject): void {
    if (t.custom || !WITH_REPLICAS.has(`${t.group}/${t.kind}`)) return;
    const replicas = (obj.spec as JsonObject | undefined)?.replicas;
    const cause = negativeReplicas(replicas);
    if (cause) throw errors.invalid(t, String(metadataOf(obj).name ?? ''), [cause]);
  }
}

/** The cause kube-apiserver gives a negative `spec.replicas`, or undefined when it is not one. */
export function negativeReplicas(replicas: unknown): StatusCause | undefined {
  if (typeof replicas !== 'number' || replicas >= 0) return undefined;
  return {
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
    field: 'spec.replicas',
  };
}
