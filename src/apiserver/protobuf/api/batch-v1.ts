import { bool, int, objectMeta, string, time } from '../scalars.js';
import { list, message, ptr, req } from '../schema.js';
import { objectReference } from './core-refs.js';
import { labelSelector } from './meta-v1.js';
import { podTemplateSpec } from './pod.js';

/** batch/v1 Job and CronJob, which `kubectl create job|cronjob` send (`create job --from=cronjob/…` too). */

const podFailurePolicyRule = message('PodFailurePolicyRule', () => [
  [1, 'action', req(string)],
  [
    2,
    'onExitCodes',
    ptr(
      message('PodFailurePolicyOnExitCodesRequirement', () => [
        [1, 'containerName', ptr(string)],
        [2, 'operator', req(string)],
        [3, 'values', list(int)],
      ]),
    ),
  ],
  [
    3,
    'onPodConditions',
    list(
      message('PodFailurePolicyOnPodConditionsPattern', () => [
        [1, 'type', req(string)],
        [2, 'status', req(string)],
      ]),
    ),
  ],
]);

const successPolicyRule = message('SuccessPolicyRule', () => [
  [1, 'succeededIndexes', ptr(string)],
  [2, 'succeededCount', ptr(int)],
]);

export const jobSpec = message('JobSpec', () => [
  [1, 'parallelism', ptr(int)],
  [2, 'completions', ptr(int)],
  [3, 'activeDeadlineSeconds', ptr(int)],
  [11, 'podFailurePolicy', ptr(message('PodFailurePolicy', () => [[1, 'rules', list(podFailurePolicyRule)]]))],
  [16, 'successPolicy', ptr(message('SuccessPolicy', () => [[1, 'rules', list(successPolicyRule)]]))],
  [7, 'backoffLimit', ptr(int)],
  [12, 'backoffLimitPerIndex', ptr(int)],
  [13, 'maxFailedIndexes', ptr(int)],
  [4, 'selector', ptr(labelSelector)],
  [5, 'manualSelector', ptr(bool)],
  [6, 'template', podTemplateSpec],
  [8, 'ttlSecondsAfterFinished', ptr(int)],
  [9, 'completionMode', ptr(string)],
  [10, 'suspend', ptr(bool)],
  [14, 'podReplacementPolicy', ptr(string)],
  [15, 'managedBy', ptr(string)],
]);

const jobCondition = message('JobCondition', () => [
  [1, 'type', req(string)],
  [2, 'status', req(string)],
  [3, 'lastProbeTime', time],
  [4, 'lastTransitionTime', time],
  [5, 'reason', string],
  [6, 'message', string],
]);

const jobStatus = message('JobStatus', () => [
  [1, 'conditions', list(jobCondition)],
  [2, 'startTime', ptr(time)],
  [3, 'completionTime', ptr(time)],
  [4, 'active', int],
  [5, 'succeeded', int],
  [6, 'failed', int],
  [11, 'terminating', ptr(int)],
  [7, 'completedIndexes', string],
  [10, 'failedIndexes', ptr(string)],
  [
    8,
    'uncountedTerminatedPods',
    ptr(
      message('UncountedTerminatedPods', () => [
        [1, 'succeeded', list(string)],
        [2, 'failed', list(string)],
      ]),
    ),
  ],
  [9, 'ready', ptr(int)],
]);

const job = message('Job', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', jobSpec],
  [3, 'status', jobStatus],
]);

const cronJobSpec = message('CronJobSpec', () => [
  [1, 'schedule', req(string)],
  [8, 'timeZone', ptr(string)],
  [2, 'startingDeadlineSeconds', ptr(int)],
  [3, 'concurrencyPolicy', string],
  [4, 'suspend', ptr(bool)],
  [
    5,
    'jobTemplate',
    message('JobTemplateSpec', () => [
      [1, 'metadata', objectMeta],
      [2, 'spec', jobSpec],
    ]),
  ],
  [6, 'successfulJobsHistoryLimit', ptr(int)],
  [7, 'failedJobsHistoryLimit', ptr(int)],
]);

const cronJobStatus = message('CronJobStatus', () => [
  [1, 'active', list(objectReference)],
  [4, 'lastScheduleTime', ptr(time)],
  [5, 'lastSuccessfulTime', ptr(time)],
]);

const cronJob = message('CronJob', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', cronJobSpec],
  [3, 'status', cronJobStatus],
]);

export const BATCH_V1 = { 'batch/v1/Job': job, 'batch/v1/CronJob': cronJob };
