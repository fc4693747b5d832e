// kube-apiserver's validateJobSpec (kubernetes/kubernetes pkg/apis/batch/validation/validation.go), shared by a Job
// and a CronJob's job template: the numbers, the completion mode and its limits, validatePodFailurePolicy (the rules'
// actions and which requirement each has; the requirements' members unchecked), validateSuccessPolicy (the indexes'
// format unchecked), validatePodReplacementPolicy, and the pod template (ValidatePodTemplateSpec) with the
// restartPolicy a Job's pods may have.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required, tooLong, tooMany } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { domainPrefixedPathCauses, nonNegative, str } from './checks.js';
import { labelMapCauses } from './label-selector.js';
import { objectAt, podSpecCauses } from './pod-spec.js';

const NONNEGATIVE = 'must be greater than or equal to 0';
export const INDEXED = 'Indexed';
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
export const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
export const int = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

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
export const invalidOmitted = (field: string, detail: string): FieldCause => ({
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
export function jobSpecCauses(spec: JsonObject, path: string): FieldCause[] {
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
