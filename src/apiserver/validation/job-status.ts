// kube-apiserver's Job status validation (kubernetes/kubernetes pkg/apis/batch/validation/validation.go:
// validateJobStatus, ValidateJobStatusUpdate) with the options pkg/registry/batch/job/strategy.go gives them.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { nonNegative, str } from './checks.js';
import { objectAt } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';
import { INDEXED, int, invalidOmitted, set } from './job-spec.js';

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
