import type { JsonObject } from '../registry/types.js';
import { applyRows, existingObject, isObject, objectAt, objectsIn, type DefaultRow } from './fields.js';
import { defaultTemplateOf } from './pod-spec.js';

/**
 * batch/v1 defaulting: pkg/apis/batch/v1/defaults.go as of 1.32 (JobPodReplacementPolicy on by
 * default), plus the pod template's PodSpec defaults. The selector and labels jobStrategy adds on
 * create (batch.kubernetes.io/controller-uid, job-name) are not generated here.
 */

/** SetDefaults_CronJob. */
const CRON_JOB_SPEC: readonly DefaultRow[] = [
  ['concurrencyPolicy', 'Allow', 'zero'],
  ['suspend', false, 'nil'],
  ['successfulJobsHistoryLimit', 3, 'nil'],
  ['failedJobsHistoryLimit', 1, 'nil'],
];

const JOB_SPEC: readonly DefaultRow[] = [
  ['parallelism', 1, 'nil'],
  ['completionMode', 'NonIndexed', 'nil'],
  ['suspend', false, 'nil'],
];

const MAX_INT32 = 2147483647;

export function defaultJob(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  // SetDefaults_Job: a non-parallel job leaves both unset, and gets one of each.
  if (spec.completions == null && spec.parallelism == null) spec.completions = 1;
  applyRows(spec, JOB_SPEC);
  if (spec.backoffLimit == null) spec.backoffLimit = spec.backoffLimitPerIndex != null ? MAX_INT32 : 6;
  const meta = objectAt(obj, 'metadata');
  const templateLabels = existingObject(existingObject(existingObject(spec, 'template') ?? {}, 'metadata') ?? {}, 'labels');
  const labels = meta.labels;
  if (templateLabels && (!isObject(labels) || Object.keys(labels).length === 0)) meta.labels = { ...templateLabels };
  const failurePolicy = existingObject(spec, 'podFailurePolicy');
  if (spec.podReplacementPolicy == null) spec.podReplacementPolicy = failurePolicy ? 'Failed' : 'TerminatingOrFailed';
  for (const rule of objectsIn(failurePolicy ?? {}, 'rules')) {
    for (const pattern of objectsIn(rule, 'onPodConditions')) if (!pattern.status) pattern.status = 'True';
  }
  defaultTemplateOf(spec);
}

export function defaultCronJob(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, CRON_JOB_SPEC);
  const jobTemplate = existingObject(spec, 'jobTemplate');
  defaultTemplateOf(jobTemplate && existingObject(jobTemplate, 'spec'));
}
