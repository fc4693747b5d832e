// Part of kube-apiserver's batch validation (kubernetes/kubernetes pkg/apis/batch/validation/validation.go):
// ValidateJobSpec's template (its pod spec, restartPolicy OnFailure or Never, the job-name labels) and numbers, and
// ValidateJobSpecUpdate's immutable selector, template and completions; ValidateCronJobCreate and
// ValidateCronJobUpdate (validateCronJobSpec, validateScheduleFormat).
import { isObject } from '../objects/meta.js';
import { labelValueErrors } from '../selectors/label-validation.js';
import type { JsonObject } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { objectAt, podSpecCauses } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

const NONNEGATIVE = 'must be greater than or equal to 0';

/** The Job's name becomes the value of its template's job-name labels (batch's PrepareForCreate). */
export function jobNameLabelCauses(name: string): FieldCause[] {
  return name ? labelValueErrors(name).map((m) => invalid('spec.template.labels', name, m)) : [];
}

/** validateJobSpec's template and numbers, the spec at `path` (`spec`, `spec.jobTemplate.spec`). */
function jobSpecCauses(spec: JsonObject, path: string): FieldCause[] {
  const pod = objectAt(objectAt(spec, 'template'), 'spec');
  const causes = podSpecCauses(pod, `${path}.template.spec`);
  const rp = typeof pod.restartPolicy === 'string' ? pod.restartPolicy : '';
  // A value outside the three is the pod spec's NotSupported; Always (the pod default) or none is this.
  if (rp === '' || rp === 'Always') {
    causes.push(required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  }
  for (const f of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished']) {
    const v = spec[f];
    if (typeof v === 'number' && v < 0) causes.push(invalid(`${path}.${f}`, v, NONNEGATIVE));
  }
  return causes;
}

export function jobCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes = jobSpecCauses(spec, 'spec');
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

const CRON_FIELD = /^(\*|\?|\d+(-\d+)?|[A-Za-z]{3}(-[A-Za-z]{3})?)(\/\d+)?$/;
const CRON_DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** robfig/cron's ParseStandard, as far as telling a schedule it parses from one it does not. */
function scheduleError(schedule: string): string | undefined {
  const s = schedule.replace(/^(CRON_)?TZ=\S+\s+/, '');
  if (CRON_DESCRIPTORS.includes(s) || /^@every \d+[smh]/.test(s)) return undefined;
  const fields = s.trim().split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const bad = fields.flatMap((f) => f.split(',')).find((item) => !CRON_FIELD.test(item));
  if (bad === undefined) return undefined;
  return `failed to parse int from ${bad}: strconv.Atoi: parsing "${bad}": invalid syntax`;
}

/**
 * ValidateCronJobCreate / ValidateCronJobUpdate (validateCronJobSpec): the schedule, the deadlines and
 * history limits, concurrencyPolicy, and the job template's spec as a Job's.
 */
export function cronJobCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') causes.push(required('spec.schedule'));
  else {
    const err = scheduleError(schedule);
    if (err) causes.push(invalid('spec.schedule', schedule, err));
    const oldSchedule = old ? objectAt(old, 'spec').schedule : undefined;
    if (schedule.includes('TZ') && !(typeof oldSchedule === 'string' && oldSchedule.includes('TZ'))) {
      const detail = 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
      causes.push(invalid('spec.schedule', schedule, detail));
    }
  }
  for (const f of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const v = spec[f];
    if (typeof v === 'number' && v < 0) causes.push(invalid(`spec.${f}`, v, NONNEGATIVE));
  }
  const cp = spec.concurrencyPolicy;
  const policies = ['Allow', 'Forbid', 'Replace'];
  if (typeof cp === 'string' && !policies.includes(cp))
    causes.push(notSupported('spec.concurrencyPolicy', cp, policies));
  const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  if (!old && name.length > 52) causes.push(invalid('metadata.name', name, 'must be no more than 52 characters'));
  const jobSpec = objectAt(objectAt(spec, 'jobTemplate'), 'spec');
  causes.push(...jobSpecCauses(jobSpec, 'spec.jobTemplate.spec'));
  // ValidateJobTemplateSpec: a CronJob's Jobs get generated selectors.
  if (jobSpec.manualSelector === true)
    causes.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  return causes;
}
