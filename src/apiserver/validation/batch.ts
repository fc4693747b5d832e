// Part of kube-apiserver's batch validation (kubernetes/kubernetes pkg/apis/batch/validation/validation.go):
// ValidateJobSpec's template (its pod spec, restartPolicy OnFailure or Never, the job-name labels) and numbers, and
// ValidateJobSpecUpdate's immutable selector, template and completions; ValidateCronJobCreate and
// ValidateCronJobUpdate (validateCronJobSpec, validateScheduleFormat).
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, forbidden, invalid, notSupported, required, tooLong, tooMany } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { matchesLabels } from '../selectors/index.js';
import { labelValueErrors, qualifiedNameErrors } from '../selectors/label-validation.js';
import { domainPrefixedPathCauses, immutable, nonNegative, str } from './checks.js';
import { dns1123LabelErrors } from './dns.js';
import { invalidSelector, labelMapCauses, labelSelectorCauses, selectorOf } from './label-selector.js';
import { objectAt, podSpecCauses } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

const NONNEGATIVE = 'must be greater than or equal to 0';

/** The Job's name becomes the value of its template's job-name labels (batch's PrepareForCreate). */
export function jobNameLabelCauses(name: string): FieldCause[] {
  return name ? labelValueErrors(name).map((m) => invalid('spec.template.labels', name, m)) : [];
}

const INDEXED = 'Indexed';
const NON_INDEXED = 'NonIndexed';
const MAX_PARALLELISM_INDEXED = 100000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const MAX_MANAGED_BY = 63;
const MAX_FAILURE_RULES = 20;
const MAX_SUCCESS_RULES = 20;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const REPLACEMENT = ['Failed', 'TerminatingOrFailed'];
const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
const int = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

/** validatePodFailurePolicyRule: the action and one of onExitCodes and onPodConditions (their members unchecked). */
function failurePolicyCauses(spec: JsonObject, path: string): FieldCause[] {
  const policy = objectAt(spec, 'podFailurePolicy');
  const rules = Array.isArray(policy.rules) ? policy.rules : [];
  const causes: FieldCause[] = [];
  if (rules.length > MAX_FAILURE_RULES) causes.push(tooMany(`${path}.rules`, rules.length, MAX_FAILURE_RULES));
  rules.forEach((r, i) => {
    const rule = isObject(r) ? r : {};
    const at = `${path}.rules[${i}]`;
    const action = str(rule.action);
    if (action === '')
      causes.push(required(`${at}.action`, `valid values: [${ACTIONS.map((a) => `"${a}"`).join(' ')}]`));
    else if (action === 'FailIndex') {
      if (!set(spec.backoffLimitPerIndex))
        causes.push(invalid(`${at}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!ACTIONS.includes(action)) causes.push(notSupported(`${at}.action`, action, ACTIONS));
    const exit = set(rule.onExitCodes);
    const conditions = Array.isArray(rule.onPodConditions) && rule.onPodConditions.length > 0;
    if (exit && conditions)
      causes.push(invalidOmitted(at, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!exit && !conditions)
      causes.push(invalidOmitted(at, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return causes;
}

/** field.Invalid with field.OmitValueType: the message has no value. */
const invalidOmitted = (field: string, detail: string): FieldCause => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${detail}`,
});

/** validateSuccessPolicy: rules, each with a count or indexes (the indexes' format unchecked). */
function successPolicyCauses(spec: JsonObject, path: string): FieldCause[] {
  const rules = Array.isArray(objectAt(spec, 'successPolicy').rules)
    ? (objectAt(spec, 'successPolicy').rules as JsonValue[])
    : [];
  const causes: FieldCause[] = [];
  if (!rules.length)
    causes.push(required(`${path}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_RULES) causes.push(tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_RULES));
  const completions = int(spec.completions) ?? 0;
  rules.forEach((r, i) => {
    const rule = isObject(r) ? r : {};
    const at = `${path}.rules[${i}]`;
    if (!set(rule.succeededCount) && !set(rule.succeededIndexes))
      causes.push(required(at, 'at least one of succeededCount or succeededIndexes must be specified'));
    const count = int(rule.succeededCount);
    if (count === undefined) return;
    if (count < 0) causes.push(invalid(`${at}.succeededCount`, count, NONNEGATIVE));
    if (count > completions) {
      const detail = `must be less than or equal to ${completions} (the number of specified completions)`;
      causes.push(invalid(`${at}.succeededCount`, count, detail));
    }
  });
  return causes;
}

/** validateJobSpec: the numbers, the modes and policies, the pod template and its restartPolicy. */
function jobSpecCauses(spec: JsonObject, path: string): FieldCause[] {
  const causes = nonNegative(spec, ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit'], path);
  causes.push(...nonNegative(spec, ['ttlSecondsAfterFinished', 'backoffLimitPerIndex'], path));
  const parallelism = int(spec.parallelism);
  const completions = int(spec.completions);
  const maxFailed = int(spec.maxFailedIndexes);
  if (set(spec.maxFailedIndexes)) {
    causes.push(...nonNegative(spec, ['maxFailedIndexes'], path));
    if (!set(spec.backoffLimitPerIndex))
      causes.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (set(spec.managedBy)) {
    const managedBy = str(spec.managedBy);
    causes.push(...domainPrefixedPathCauses(managedBy, `${path}.managedBy`));
    if (managedBy.length > MAX_MANAGED_BY) causes.push(tooLong(`${path}.managedBy`, MAX_MANAGED_BY));
  }
  const mode = spec.completionMode;
  if (set(mode)) {
    if (mode !== NON_INDEXED && mode !== INDEXED)
      causes.push(notSupported(`${path}.completionMode`, mode, [NON_INDEXED, INDEXED]));
    if (mode === INDEXED) {
      if (completions === undefined) causes.push(required(`${path}.completions`, 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED) {
        const detail = `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`;
        causes.push(invalid(`${path}.parallelism`, parallelism, detail));
      }
      if (completions !== undefined && maxFailed !== undefined && maxFailed > completions)
        causes.push(invalid(`${path}.maxFailedIndexes`, maxFailed, 'must be less than or equal to completions'));
      if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES) {
        const detail = `must be less than or equal to ${MAX_FAILED_INDEXES}`;
        causes.push(invalid(`${path}.maxFailedIndexes`, maxFailed, detail));
      }
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && set(spec.backoffLimitPerIndex)) {
        const above = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (maxFailed === undefined) {
          const detail = `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`;
          causes.push(required(`${path}.maxFailedIndexes`, detail));
        }
        if (parallelism !== undefined && parallelism > PARALLELISM_HIGH_COMPLETIONS) {
          const detail = `must be less than or equal to ${PARALLELISM_HIGH_COMPLETIONS} ${above}`;
          causes.push(invalid(`${path}.parallelism`, parallelism, detail));
        }
        if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
          const detail = `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} ${above}`;
          causes.push(invalid(`${path}.maxFailedIndexes`, maxFailed, detail));
        }
      }
    }
  }
  if (!set(mode) || mode === NON_INDEXED) {
    if (set(spec.backoffLimitPerIndex))
      causes.push(
        invalid(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex ?? null, 'requires indexed completion mode'),
      );
    if (set(spec.maxFailedIndexes))
      causes.push(
        invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes ?? null, 'requires indexed completion mode'),
      );
  }
  const failurePolicy = set(spec.podFailurePolicy);
  if (failurePolicy) causes.push(...failurePolicyCauses(spec, `${path}.podFailurePolicy`));
  if (set(spec.successPolicy)) {
    if (mode !== INDEXED)
      causes.push(invalid(`${path}.successPolicy`, spec.successPolicy ?? null, 'requires indexed completion mode'));
    else causes.push(...successPolicyCauses(spec, `${path}.successPolicy`));
  }
  const replacement = spec.podReplacementPolicy;
  if (set(replacement)) {
    if (failurePolicy) {
      if (replacement !== 'Failed') causes.push(notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed']));
    } else if (typeof replacement !== 'string' || !REPLACEMENT.includes(replacement))
      causes.push(notSupported(`${path}.podReplacementPolicy`, replacement, REPLACEMENT));
  }
  const template = objectAt(spec, 'template');
  const pod = objectAt(template, 'spec');
  causes.push(...podTemplateCauses(template, `${path}.template`));
  const rp = typeof pod.restartPolicy === 'string' ? pod.restartPolicy : '';
  const rpPath = `${path}.template.spec.restartPolicy`;
  if (rp === '' || rp === 'Always') causes.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') causes.push(notSupported(rpPath, rp, ['OnFailure', 'Never']));
  else if (failurePolicy && rp !== 'Never')
    causes.push(invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  return causes;
}

/** ValidatePodTemplateSpec: the template's labels and annotations, its pod spec, no ephemeral containers. */
function podTemplateCauses(template: JsonObject, path: string): FieldCause[] {
  const meta = objectAt(template, 'metadata');
  const causes = labelMapCauses(meta.labels, `${path}.labels`);
  if (isObject(meta.annotations))
    for (const k of Object.keys(meta.annotations))
      for (const m of qualifiedNameErrors(k.toLowerCase())) causes.push(invalid(`${path}.annotations`, k, m));
  const pod = objectAt(template, 'spec');
  causes.push(...podSpecCauses(pod, `${path}.spec`));
  if (Array.isArray(pod.ephemeralContainers) && pod.ephemeralContainers.length)
    causes.push(forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return causes;
}

const LEGACY_UID = 'controller-uid';
const LEGACY_NAME = 'job-name';
const UID = 'batch.kubernetes.io/controller-uid';
const NAME = 'batch.kubernetes.io/job-name';

/**
 * The template labels and selector jobStrategy.PrepareForCreate (generateSelector) gives a Job without a manual
 * selector. This server generates them after validation (defaults/batch-v1.ts prepareNewJob), so a create is
 * checked against what they will be; a client's own value of one of the labels is kept, as upstream keeps it.
 */
function generated(obj: JsonObject, spec: JsonObject): { labels: Record<string, string>; selector: JsonValue } {
  const meta = objectAt(obj, 'metadata');
  const uid = str(meta.uid);
  const name = str(meta.name);
  const own = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(own)) labels[k] = typeof v === 'string' ? v : '';
  for (const [k, v] of [
    [LEGACY_NAME, name],
    [NAME, name],
    [LEGACY_UID, uid],
    [UID, uid],
  ] as const)
    labels[k] ??= v;
  const sel = isObject(spec.selector) ? spec.selector : {};
  const matchLabels = isObject(sel.matchLabels) ? { ...sel.matchLabels } : {};
  matchLabels[UID] ??= uid;
  return { labels, selector: { ...sel, matchLabels } };
}

/**
 * validateGeneratedSelector, on the generated labels: each as generated (the prefixed ones when
 * RequirePrefixedLabels), and a selector that selects them.
 */
function generatedSelectorCauses(
  obj: JsonObject,
  labels: Record<string, string>,
  selector: JsonValue,
  prefixed: boolean,
): FieldCause[] {
  const meta = objectAt(obj, 'metadata');
  const uid = str(meta.uid);
  const name = str(meta.name);
  const causes: FieldCause[] = [];
  const has = (key: string, want: string): void => {
    const at = `spec.template.metadata.labels[${key}]`;
    if (!(key in labels)) causes.push(required(at, `must be '${want}'`));
    else if (labels[key] !== want) causes.push(invalid(at, labels, `must be '${want}'`));
  };
  const expected: Record<string, string> = {};
  const pairs: Array<[string, string]> = [
    [LEGACY_UID, uid],
    [LEGACY_NAME, name],
  ];
  if (prefixed) pairs.push([UID, uid], [NAME, name]);
  for (const [key, want] of pairs) {
    has(key, want);
    expected[key] = want;
  }
  const parsed = selectorOf(selector);
  if (parsed && !matchesLabels(parsed, expected))
    causes.push(invalidSelector('spec.selector', selector, '`selector` not auto-generated'));
  return causes;
}

/**
 * validateCompletions (ElasticIndexedJob, GA): completions are fixed, but an Indexed Job's may change together
 * with its parallelism.
 */
function completionsCauses(spec: JsonObject, before: JsonObject): FieldCause[] {
  if (spec.completionMode !== INDEXED) return immutable(spec.completions, before.completions, 'spec.completions');
  if (semanticEqual(spec.completions, before.completions) || !set(spec.completions)) return [];
  if (spec.completions !== spec.parallelism)
    return [
      invalid('spec.completions', spec.completions ?? null, 'can only be modified in tandem with spec.parallelism'),
    ];
  return [];
}

/** ValidateJobSpec: validateJobSpec, then the selector: required, well formed, and selecting the template. */
function jobSpecWithSelectorCauses(
  spec: JsonObject,
  selector: JsonValue | undefined,
  labels: Record<string, string>,
): FieldCause[] {
  const causes = jobSpecCauses(spec, 'spec');
  if (!set(selector)) causes.push(required('spec.selector'));
  else causes.push(...labelSelectorCauses(selector, 'spec.selector'));
  // A nil selector is labels.Nothing(), which selects no pods.
  const parsed = set(selector) ? selectorOf(selector) : undefined;
  if (!set(selector) || (parsed && !matchesLabels(parsed, labels))) {
    const templateLabels = objectAt(objectAt(spec, 'template'), 'metadata').labels;
    causes.push(
      invalid(
        'spec.template.metadata.labels',
        isObject(templateLabels) ? templateLabels : null,
        '`selector` does not match template `labels`',
      ),
    );
  }
  return causes;
}

/** ValidateJob, and on update ValidateJobUpdate after it (the strategy appends both, so spec errors come twice). */
export function jobCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  const manual = spec.manualSelector === true;
  const own = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
  const ownLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(own)) ownLabels[k] = typeof v === 'string' ? v : '';
  const { labels, selector } = !old && !manual ? generated(obj, spec) : { labels: ownLabels, selector: spec.selector };
  const causes: FieldCause[] = [];
  const before = old ? objectAt(old, 'spec') : undefined;
  // RequirePrefixedLabels: always on create; on update only for a Job that already has both prefixed labels.
  const oldLabels = objectAt(objectAt(objectAt(before ?? {}, 'template'), 'metadata'), 'labels');
  const prefixed = !before || (NAME in oldLabels && UID in oldLabels);
  if (!manual && set(selector)) causes.push(...generatedSelectorCauses(obj, labels, selector ?? null, prefixed));
  causes.push(...jobSpecWithSelectorCauses(spec, selector, labels));
  if (!old) causes.push(...jobNameLabelCauses(name));
  const completions = int(spec.completions);
  if (spec.completionMode === INDEXED && completions !== undefined && completions > 0) {
    const hostname = `${name}-${completions - 1}`;
    if (dns1123LabelErrors(hostname).length)
      causes.push(invalid('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  if (!old || !before) return causes;
  causes.push(...jobSpecWithSelectorCauses(spec, spec.selector, ownLabels));
  causes.push(...completionsCauses(spec, before));
  causes.push(...immutable(spec.selector, before.selector, 'spec.selector'));
  causes.push(...templateUpdateCauses(spec, before, objectAt(old, 'status')));
  for (const f of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'])
    causes.push(...immutable(spec[f], before[f], `spec.${f}`));
  return causes;
}

/**
 * validatePodTemplateUpdate: the template is fixed, but for a Job suspended and never started
 * (AllowMutableSchedulingDirectives), whose node affinity, node selector, tolerations, labels, annotations
 * and scheduling gates may change.
 */
function templateUpdateCauses(spec: JsonObject, before: JsonObject, oldStatus: JsonObject): FieldCause[] {
  const template = objectAt(spec, 'template');
  let oldTemplate = objectAt(before, 'template');
  if (before.suspend === true && !set(oldStatus.startTime)) {
    const now = objectAt(template, 'spec');
    const was: JsonObject = { ...objectAt(oldTemplate, 'spec') };
    const affinity = isObject(now.affinity) ? now.affinity : undefined;
    const oldAffinity = isObject(was.affinity) ? { ...was.affinity } : undefined;
    if (oldAffinity) {
      if (affinity) oldAffinity.nodeAffinity = affinity.nodeAffinity ?? null;
      else delete oldAffinity.nodeAffinity;
      was.affinity = !affinity && semanticEqual(oldAffinity, {}) ? null : oldAffinity;
    } else if (affinity) was.affinity = { nodeAffinity: affinity.nodeAffinity ?? null };
    for (const f of ['nodeSelector', 'tolerations', 'schedulingGates']) was[f] = now[f] ?? null;
    const meta = { ...objectAt(oldTemplate, 'metadata') };
    const nowMeta = objectAt(template, 'metadata');
    meta.labels = nowMeta.labels ?? null;
    meta.annotations = nowMeta.annotations ?? null;
    oldTemplate = { ...oldTemplate, metadata: meta, spec: was };
  }
  return immutable(template, oldTemplate, 'spec.template');
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

const conditionTrue = (status: JsonObject, type: string): boolean =>
  (Array.isArray(status.conditions) ? status.conditions : []).some(
    (c) => isObject(c) && c.type === type && c.status === 'True',
  );

/** validateIndexesFormat: `1,3-5` below completions, increasing; the error text or undefined. */
function indexesError(text: string, completions: number): string | undefined {
  if (text === '') return undefined;
  let last: number | undefined;
  const atoi = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);
  for (const interval of text.split(',')) {
    const limits = interval.split('-');
    if (limits.length > 2)
      return `the fragment "${interval}" violates the requirement that an index interval can have at most two parts separated by '-'`;
    const [from = '', to] = limits;
    const x = atoi(from);
    if (x === undefined) return `cannot convert string to integer for index: "${from}"`;
    if (x >= completions) return `too large index: "${from}"`;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    if (to === undefined) {
      last = x;
      continue;
    }
    const y = atoi(to);
    if (y === undefined) return `cannot convert string to integer for index: "${to}"`;
    if (y >= completions) return `too large index: "${to}"`;
    if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
    last = y;
  }
  return undefined;
}

/**
 * ValidateJobUpdateStatus (validateJobStatus, ValidateJobStatusUpdate) with the options jobStatusStrategy gives
 * under JobManagedBy (on in v1.34): most rules apply only when a field they read changed. The rules on
 * SuccessCriteriaMet, FailureTarget and the overlap of failed and completed indexes are not checked here.
 */
export function jobStatusCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const status = objectAt(obj, 'status');
  const was = objectAt(old ?? {}, 'status');
  const spec = objectAt(obj, 'spec');
  const causes = nonNegative(status, ['active', 'succeeded', 'failed', 'ready', 'terminating'], 'status');
  const uncounted = objectAt(status, 'uncountedTerminatedPods');
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed']) {
    (Array.isArray(uncounted[kind]) ? (uncounted[kind] as JsonValue[]) : []).forEach((u, i) => {
      const at = `status.uncountedTerminatedPods.${kind}[${i}]`;
      const uid = str(u);
      if (uid === '') causes.push(invalid(at, uid, 'must not be empty'));
      else if (seen.has(uid)) causes.push(duplicate(at, uid));
      else seen.add(uid);
    });
  }
  const changed = (f: string): boolean => !semanticEqual(status[f], was[f]);
  const complete = conditionTrue(status, 'Complete');
  const failed = conditionTrue(status, 'Failed');
  const finished = complete || failed;
  const finishedChanged = finished !== (conditionTrue(was, 'Complete') || conditionTrue(was, 'Failed'));
  const completeChanged = complete !== conditionTrue(was, 'Complete');
  const completionTimeChanged = changed('completionTime');
  const active = int(status.active) ?? 0;
  if ((completeChanged || failed !== conditionTrue(was, 'Failed')) && complete && failed)
    causes.push(invalidOmitted('status.conditions', 'cannot set Complete=True and Failed=true conditions'));
  if ((completeChanged || completionTimeChanged) && set(status.completionTime) && !complete) {
    const detail = 'cannot set completionTime when there is no Complete=True condition';
    causes.push(invalid('status.completionTime', status.completionTime ?? null, detail));
  }
  if ((completeChanged || completionTimeChanged) && !set(status.completionTime) && complete)
    causes.push(required('status.completionTime', 'completionTime is required for Complete jobs'));
  if ((finishedChanged || changed('active')) && active > 0 && finished)
    causes.push(invalid('status.active', active, 'active>0 is invalid for finished job'));
  const zeroSuspended = spec.suspend === true && spec.completions === 0;
  if ((finishedChanged || changed('startTime')) && !zeroSuspended && !set(status.startTime) && finished)
    causes.push(required('status.startTime', 'startTime is required for finished job'));
  const completions = int(spec.completions);
  const completed = str(status.completedIndexes);
  if (changed('completedIndexes')) {
    const err = completions !== undefined ? indexesError(completed, completions) : undefined;
    if (err) causes.push(invalid('status.completedIndexes', completed, `error parsing completedIndexes: ${err}`));
    if (completed !== '' && spec.completionMode !== INDEXED) {
      const detail = 'cannot set non-empty completedIndexes when non-indexed completion mode';
      causes.push(invalid('status.completedIndexes', completed, detail));
    }
  }
  if (changed('failedIndexes') && set(status.failedIndexes)) {
    const failedIndexes = str(status.failedIndexes);
    if (completions !== undefined && set(spec.backoffLimitPerIndex)) {
      const err = indexesError(failedIndexes, completions);
      if (err) causes.push(invalid('status.failedIndexes', failedIndexes, `error parsing failedIndexes: ${err}`));
    }
    if (!set(spec.backoffLimitPerIndex)) {
      const detail = 'cannot set non-null failedIndexes when backoffLimitPerIndex is null';
      causes.push(invalid('status.failedIndexes', failedIndexes, detail));
    }
  }
  const ready = int(status.ready);
  if ((changed('ready') || changed('active')) && ready !== undefined && ready > active)
    causes.push(invalid('status.ready', ready, 'cannot set more ready pods than active'));
  if (!old) return causes;
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(was, type) && !conditionTrue(status, type))
      causes.push(invalidOmitted('status.conditions', `cannot disable the terminal ${type}=True condition`));
  }
  if ((int(status.failed) ?? 0) < (int(was.failed) ?? 0))
    causes.push(invalid('status.failed', int(status.failed) ?? 0, 'cannot decrease the failed counter'));
  const scalable = spec.completionMode === INDEXED && semanticEqual(spec.completions, spec.parallelism);
  if (!scalable && (int(status.succeeded) ?? 0) < (int(was.succeeded) ?? 0))
    causes.push(invalid('status.succeeded', int(status.succeeded) ?? 0, 'cannot decrease the succeeded counter'));
  if (set(status.completionTime) && set(was.completionTime) && status.completionTime !== was.completionTime)
    causes.push(invalid('status.completionTime', status.completionTime ?? null, 'completionTime cannot be mutated'));
  if (set(was.startTime) && was.startTime !== status.startTime && spec.suspend !== true)
    causes.push(required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  return causes;
}
