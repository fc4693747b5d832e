// kube-apiserver v1.34's StatefulSet checks beyond the template and selector (apps.ts,
// selector-kinds.ts), from pkg/apis/apps/validation/validation.go: ValidateStatefulSetSpec's
// podManagementPolicy, updateStrategy (a rolling update's partition), PVC retention policy, replicas,
// minReadySeconds, ordinals.start and serviceName (on create); ValidateStatefulSetUpdate's rule that
// only some spec fields move; ValidateStatefulSetStatus and ValidateStatefulSetStatusUpdate. Not
// checked here: the volumeClaimTemplates' specs.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import { goJson } from '../schema/gofmt.js';
import type { FieldCause } from '../schema/types.js';
import { str } from './checks.js';
import { dns1123LabelErrors } from './dns.js';
import { semanticEqual } from './semantic-equal.js';

const NONNEGATIVE = 'must be greater than or equal to 0';
const RETENTION = ['Retain', 'Delete'];
/** The spec fields ValidateStatefulSetUpdate lets move. */
const MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
];

const objectOf = (v: JsonValue | undefined): JsonObject => (isObject(v) ? v : {});
const num = (v: JsonValue | undefined): number => (typeof v === 'number' ? v : 0);

function nonNegative(v: JsonValue | undefined, path: string): FieldCause[] {
  return typeof v === 'number' && v < 0 ? [invalid(path, v, NONNEGATIVE)] : [];
}

/** The internal RollingUpdateStatefulSetStrategy as Go's JSON shows it: no tags, its fields in order. */
const internalRollingUpdate = (ru: JsonObject): string =>
  `{"Partition":${num(ru.partition)},"MaxUnavailable":${goJson(ru.maxUnavailable ?? null)}}`;

/** The internal StatefulSetUpdateStrategy, likewise. */
function internalStrategy(s: JsonObject): string {
  const rolling = isObject(s.rollingUpdate) ? internalRollingUpdate(s.rollingUpdate) : 'null';
  return `{"Type":${goJson(str(s.type))},"RollingUpdate":${rolling}}`;
}

function strategyCauses(spec: JsonObject): FieldCause[] {
  const strategy = objectOf(spec.updateStrategy);
  const type = str(strategy.type);
  const rolling = strategy.rollingUpdate;
  if (type === '') return [required('spec.updateStrategy')];
  if (type === 'OnDelete') {
    if (!isObject(rolling)) return [];
    const shown = internalRollingUpdate(rolling);
    return [
      {
        ...invalid('spec.updateStrategy.rollingUpdate', '', ''),
        message: `Invalid value: ${shown}: only allowed for updateStrategy 'RollingUpdate'`,
      },
    ];
  }
  if (type === 'RollingUpdate')
    return isObject(rolling) ? nonNegative(rolling.partition, 'spec.updateStrategy.rollingUpdate.partition') : [];
  return [
    {
      ...invalid('spec.updateStrategy', '', ''),
      message: `Invalid value: ${internalStrategy(strategy)}: must be 'RollingUpdate' or 'OnDelete'`,
    },
  ];
}

function specCauses(spec: JsonObject, creating: boolean): FieldCause[] {
  const causes: FieldCause[] = [];
  const policy = str(spec.podManagementPolicy);
  if (policy === '') causes.push(required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    causes.push(invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  causes.push(...strategyCauses(spec));
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (isObject(retention))
    for (const f of ['whenDeleted', 'whenScaled']) {
      const v = str(retention[f]);
      if (!RETENTION.includes(v))
        causes.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, v, RETENTION));
    }
  causes.push(
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
  );
  const ordinals = spec.ordinals;
  if (isObject(ordinals)) causes.push(...nonNegative(ordinals.start, 'spec.ordinals.start'));
  const serviceName = str(spec.serviceName);
  if (creating && serviceName)
    for (const m of dns1123LabelErrors(serviceName)) causes.push(invalid('spec.serviceName', serviceName, m));
  return causes;
}

export function statefulSetCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const spec = objectOf(obj.spec);
  const causes = specCauses(spec, old === undefined);
  if (!old) return causes;
  const before = objectOf(old.spec);
  const keys = new Set([...Object.keys(spec), ...Object.keys(before)].filter((k) => !MUTABLE.includes(k)));
  if ([...keys].some((k) => !semanticEqual(spec[k], before[k])))
    causes.push(
      forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  return causes;
}

/** ValidateStatefulSetStatusUpdate: ValidateStatefulSetStatus, and a collision count never decremented. */
export function statefulSetStatusCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const status = objectOf(obj.status);
  const causes: FieldCause[] = [];
  const counts = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'];
  for (const f of [...counts, 'observedGeneration', 'collisionCount'])
    causes.push(...nonNegative(status[f], `status.${f}`));
  const n = (f: string): number => num(status[f]);
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'])
    if (n(f) > n('replicas')) causes.push(invalid(`status.${f}`, n(f), 'cannot be greater than status.replicas'));
  if (n('availableReplicas') > n('readyReplicas'))
    causes.push(
      invalid('status.availableReplicas', n('availableReplicas'), 'cannot be greater than status.readyReplicas'),
    );
  const was = old ? objectOf(old.status).collisionCount : undefined;
  const now = status.collisionCount;
  if (typeof was === 'number' && (typeof now !== 'number' || now < was))
    causes.push(invalid('status.collisionCount', typeof now === 'number' ? now : 0, 'cannot be decremented'));
  return causes;
}
