import type { JsonObject } from '../registry/types.js';
import { applyRows, existingObject, isObject, objectAt, objectsIn, type DefaultRow } from './fields.js';
import { defaultTemplateOf } from './pod-spec.js';

/**
 * batch/v1 defaulting: pkg/apis/batch/v1/defaults.go as of 1.32 (JobPodReplacementPolicy on by
 * default), plus the pod template's PodSpec defaults, and on create the selector jobStrategy
 * generates (pkg/registry/batch/job/strategy.go).
 */

/** The labels generateSelector puts on a Job's pods (k8s.io/api/batch/v1 constants). */
const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];
const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';

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
  ['manualSelector', false, 'nil'],
];

const MAX_INT32 = 2147483647;

export function defaultJob(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  // SetDefaults_Job: a non-parallel job leaves both unset, and gets one of each.
  if (spec.completions == null && spec.parallelism == null) spec.completions = 1;
  applyRows(spec, JOB_SPEC);
  if (spec.backoffLimit == null) spec.backoffLimit = spec.backoffLimitPerIndex != null ? MAX_INT32 : 6;
  labelsFromTemplate(obj, spec);
  const failurePolicy = existingObject(spec, 'podFailurePolicy');
  if (spec.podReplacementPolicy == null) spec.podReplacementPolicy = failurePolicy ? 'Failed' : 'TerminatingOrFailed';
  for (const rule of objectsIn(failurePolicy ?? {}, 'rules')) {
    for (const pattern of objectsIn(rule, 'onPodConditions')) if (!pattern.status) pattern.status = 'True';
  }
  defaultTemplateOf(spec);
}

/**
 * jobStrategy.PrepareForCreate, after the field manager (a storage step): the generated selector
 * and pod labels are owned by nobody.
 */
export function prepareNewJob(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  if (spec.manualSelector === true) return;
  generateSelector(obj, spec);
  // kube-apiserver defaults the Job again when it decodes it from storage: a Job whose template
  // had no labels of its own answers with the generated ones as its labels.
  labelsFromTemplate(obj, spec);
}

/** SetDefaults_Job: a Job without labels takes its pod template's. */
function labelsFromTemplate(obj: JsonObject, spec: JsonObject): void {
  const meta = objectAt(obj, 'metadata');
  const templateLabels = existingObject(
    existingObject(existingObject(spec, 'template') ?? {}, 'metadata') ?? {},
    'labels',
  );
  const labels = meta.labels;
  if (templateLabels && Object.keys(templateLabels).length && (!isObject(labels) || Object.keys(labels).length === 0))
    meta.labels = { ...templateLabels };
}

export function defaultCronJob(obj: JsonObject): void {
  const spec = objectAt(obj, 'spec');
  applyRows(spec, CRON_JOB_SPEC);
  const jobTemplate = existingObject(spec, 'jobTemplate');
  defaultTemplateOf(jobTemplate && existingObject(jobTemplate, 'spec'));
}

/**
 * jobStrategy.PrepareForCreate's generateSelector: the pod template gets the job-name and
 * controller-uid labels (old and batch.kubernetes.io/ spellings) unless it has them, and the
 * selector matches batch.kubernetes.io/controller-uid. Labels the client set are left for
 * validation to judge.
 */
function generateSelector(obj: JsonObject, spec: JsonObject): void {
  const meta = objectAt(obj, 'metadata');
  const name = typeof meta.name === 'string' ? meta.name : '';
  const uid = typeof meta.uid === 'string' ? meta.uid : '';
  const labels = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
  for (const key of JOB_NAME_LABELS) if (!(key in labels)) labels[key] = name;
  for (const key of CONTROLLER_UID_LABELS) if (!(key in labels)) labels[key] = uid;
  const matchLabels = objectAt(objectAt(spec, 'selector'), 'matchLabels');
  if (!(CONTROLLER_UID_LABEL in matchLabels)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}
