// kube-apiserver's ValidatePodCreate and ValidatePodUpdate (kubernetes/kubernetes
// pkg/apis/core/validation/validation.go), the part this server does: the spec (pod-spec.ts) on
// create and on update, and on update a spec that changed anywhere but the mutable fields.
import { isObject } from '../objects/meta.js';
import { goSemanticEqual } from '../protobuf/index.js';
import { semanticEqual } from './semantic-equal.js';
import type { JsonObject } from '../registry/types.js';
import { forbidden } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { objectAt, podSpecCauses } from './pod-spec.js';

const IMMUTABLE_SPEC =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
  '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** The spec with what an update may change taken from `from` (ValidatePodUpdate's mungedPodSpec). */
function munged(spec: JsonObject, from: JsonObject): JsonObject {
  const out: JsonObject = { ...spec };
  for (const list of ['containers', 'initContainers']) {
    const mine = spec[list];
    const theirs = from[list];
    if (!Array.isArray(mine) || !Array.isArray(theirs)) continue;
    out[list] = mine.map((c, i) => {
      const other = theirs[i];
      return isObject(c) && isObject(other) ? { ...c, image: other.image ?? null } : c;
    });
  }
  for (const f of ['activeDeadlineSeconds', 'tolerations']) {
    if (from[f] === undefined) delete out[f];
    else out[f] = from[f];
  }
  // The deprecated serviceAccount is overwritten by serviceAccountName when decoding v1, so it never differs.
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '') {
    if (from.serviceAccount === undefined) delete out.serviceAccount;
    else out.serviceAccount = from.serviceAccount;
  }
  // Only a negative grace period (from before 1.27) may become 1.
  const grace = from.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0 && spec.terminationGracePeriodSeconds === 1)
    out.terminationGracePeriodSeconds = grace;
  return out;
}

export function podCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = podSpecCauses(spec, 'spec');
  // Compared as PodSpec: a pointer field (affinity, a securityContext) that appears, even empty, is a change.
  const before = objectAt(old ?? {}, 'spec');
  if (old && !goSemanticEqual('k8s.io.api.core.v1.PodSpec', munged(spec, before), before, semanticEqual))
    causes.push(forbidden('spec', IMMUTABLE_SPEC));
  return causes;
}
