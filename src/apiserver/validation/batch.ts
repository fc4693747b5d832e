// Part of kube-apiserver's batch validation (kubernetes/kubernetes pkg/apis/batch/validation/validation.go):
// ValidateJob (validateGeneratedSelector against the selector jobStrategy generates, ValidateJobSpec's selector,
// the Indexed hostname check), ValidateJobUpdate (validateCompletions, the fixed selector, template and policies,
// validatePodTemplateUpdate), ValidateCronJobCreate and ValidateCronJobUpdate (validateCronJobSpec,
// validateScheduleFormat). validateJobSpec itself is job-spec.ts; status writes are job-status.ts.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { matchesLabels } from '../selectors/index.js';
import { labelValueErrors } from '../selectors/label-validation.js';
import { IMMUTABLE, immutable, str } from './checks.js';
import { dns1123LabelErrors } from './dns.js';
import { invalidSelector, labelSelectorCauses, selectorOf } from './label-selector.js';
import { objectAt } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';
import { INDEXED, int, jobSpecCauses, set } from './job-spec.js';
import { GO_ZONE_NAMES } from './go-zone-names.js';

const NONNEGATIVE = 'must be greater than or equal to 0';

/** The Job's name becomes the value of its template's job-name labels (batch's PrepareForCreate). */
export function jobNameLabelCauses(name: string): FieldCause[] {
  return name ? labelValueErrors(name).map((m) => invalid('spec.template.labels', name, m)) : [];
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
  const moved = pointerMoved(objectAt(template, 'spec'), objectAt(oldTemplate, 'spec'));
  return moved ? [invalid('spec.template', template, IMMUTABLE)] : immutable(template, oldTemplate, 'spec.template');
}

/** The PodSpec and Container fields Go holds as pointers: set to a zero value is not left out. */
const POD_POINTERS = [
  'setHostnameAsFQDN',
  'shareProcessNamespace',
  'enableServiceLinks',
  'hostUsers',
  'resources',
  'os',
  'automountServiceAccountToken',
  'runtimeClassName',
  'dnsConfig',
  'affinity',
];
const CONTAINER_POINTERS = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe', 'securityContext'];

function pointerMoved(now: JsonObject, was: JsonObject): boolean {
  const moved = (a: JsonObject, b: JsonObject, keys: string[]): boolean => keys.some((k) => set(a[k]) !== set(b[k]));
  if (moved(now, was, POD_POINTERS)) return true;
  const list = (o: JsonObject): JsonObject[] =>
    Array.isArray(o.containers) ? o.containers.map((c) => (isObject(c) ? c : {})) : [];
  const before = list(was);
  return list(now).some((c, i) => moved(c, before[i] ?? {}, CONTAINER_POINTERS));
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

/** A time zone name's parts as IANA names them, with the legacy names' digits and "+" (validTimeZoneCharacters). */
const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/**
 * validateTimeZone: a name time.LoadLocation finds (kube-apiserver links Go's tzdata in: the
 * names are go-zone-names.ts), never "Local". LoadLocation takes "UTC" without looking.
 */
function timeZoneCauses(zone: JsonValue | undefined): FieldCause[] {
  if (typeof zone !== 'string') return [];
  if (zone === '') return [invalid('spec.timeZone', zone, 'timeZone must be nil or non-empty string')];
  const badPart = zone.split('/').some((p) => p === '.' || p === '..' || p.startsWith('-') || !ZONE_PART.test(p));
  if (badPart) return [invalid('spec.timeZone', zone, `unknown time zone ${zone}`)];
  const causes: FieldCause[] = [];
  if (zone.toLowerCase() === 'local') {
    const detail = 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
    causes.push(invalid('spec.timeZone', zone, detail));
  }
  if (zone !== 'UTC' && zone !== 'Local' && !GO_ZONE_NAMES.has(zone))
    causes.push(invalid('spec.timeZone', zone, `unknown time zone ${zone}`));
  return causes;
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
    const allowTZ = typeof oldSchedule === 'string' && oldSchedule.includes('TZ');
    if (allowTZ && schedule.includes('TZ') && spec.timeZone !== undefined && spec.timeZone !== null) {
      const detail = 'cannot use both timeZone field and TZ or CRON_TZ in schedule';
      causes.push(invalid('spec.schedule', schedule, detail));
    } else if (!allowTZ && schedule.includes('TZ')) {
      const detail = 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
      causes.push(invalid('spec.schedule', schedule, detail));
    }
  }
  const deadline = spec.startingDeadlineSeconds;
  if (typeof deadline === 'number' && deadline < 0)
    causes.push(invalid('spec.startingDeadlineSeconds', deadline, NONNEGATIVE));
  const oldZone = old ? objectAt(old, 'spec').timeZone : undefined;
  if (!old || (oldZone ?? null) !== (spec.timeZone ?? null)) causes.push(...timeZoneCauses(spec.timeZone));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
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
