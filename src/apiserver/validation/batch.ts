// Part of kube-apiserver's batch validation (kubernetes/kubernetes pkg/apis/batch/validation/validation.go):
// ValidateJobSpec's template (its pod spec, restartPolicy OnFailure or Never, the job-name labels) and numbers, and
// ValidateJobSpecUpdate's immutable selector, template and completions.
import { isObject } from '../objects/meta.js';
import { labelValueErrors } from '../selectors/label-validation.js';
import type { JsonObject } from '../registry/types.js';
import { invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { objectAt, podSpecCauses } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

const NONNEGATIVE = 'must be greater than or equal to 0';

/** The Job's name becomes the value of its template's job-name labels (batch's PrepareForCreate). */
export function jobNameLabelCauses(name: string): FieldCause[] {
  return name ? labelValueErrors(name).map((m) => invalid('spec.template.labels', name, m)) : [];
}

export function jobCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const pod = objectAt(objectAt(spec, 'template'), 'spec');
  const causes = podSpecCauses(pod, 'spec.template.spec');
  const rp = typeof pod.restartPolicy === 'string' ? pod.restartPolicy : '';
  // A value outside the three is the pod spec's NotSupported; Always (the pod default) or none is this.
  if (rp === '' || rp === 'Always') {
    causes.push(required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'));
  }
  for (const f of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished']) {
    const v = spec[f];
    if (typeof v === 'number' && v < 0) causes.push(invalid(`spec.${f}`, v, NONNEGATIVE));
  }
  const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  if (!old) causes.push(...jobNameLabelCauses(name));
  if (!old) return causes;
  const before = objectAt(old, 'spec');
  for (const f of [
    'selector',
    'template',
    'completionMode',
    'podFailurePolicy',
    'backoffLimitPerIndex',
    'successPolicy',
  ]) {
    if (spec[f] !== undefined && before[f] !== undefined && !semanticEqual(spec[f], before[f]))
      causes.push(invalid(`spec.${f}`, spec[f], 'field is immutable'));
  }
  return causes;
}
