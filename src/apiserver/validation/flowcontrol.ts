// Part of kube-apiserver's API Priority and Fairness validation (kubernetes/kubernetes
// pkg/apis/flowcontrol/validation/validation.go): ValidateFlowSchemaSpec (matchingPrecedence, distinguisherMethod,
// the priority level's name; rules are stored unchecked) and ValidatePriorityLevelConfigurationSpec
// (type, ValidateLimitedPriorityLevelConfiguration, ValidateLimitResponse, ValidatePriorityLevelQueuingConfiguration).
// Updates are validated as creates, as ValidateFlowSchemaUpdate does. v1's defaults are read where this server
// does not store them: matchingPrecedence 1000 when unset, a Queue response's default queuing.
import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { pathSegmentErrors, str } from './checks.js';
import { objectAt } from './pod-spec.js';

const nameOf = (obj: JsonObject): string => (isObject(obj.metadata) ? str(obj.metadata.name) : '');
const present = (v: unknown): boolean => v !== undefined && v !== null;

export function flowSchemaCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  const set = typeof spec.matchingPrecedence === 'number' && spec.matchingPrecedence !== 0;
  const mp = set && typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 1000;
  const at = 'spec.matchingPrecedence';
  if (mp <= 0) causes.push(invalid(at, mp, 'must be a positive value'));
  if (mp > 10000) causes.push(invalid(at, mp, 'must not be greater than 10000'));
  if (mp === 1 && nameOf(obj) !== 'exempt')
    causes.push(invalid(at, mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
  if (present(spec.distinguisherMethod)) {
    const dm = objectAt(spec, 'distinguisherMethod');
    if (dm.type !== 'ByNamespace' && dm.type !== 'ByUser')
      causes.push(notSupported('spec.distinguisherMethod.type', dm, ['ByNamespace', 'ByUser']));
  }
  const pl = str(objectAt(spec, 'priorityLevelConfiguration').name);
  const plPath = 'spec.priorityLevelConfiguration.name';
  if (pl) causes.push(...pathSegmentErrors(pl).map((m) => invalid(plPath, pl, m)));
  else causes.push(required(plPath, 'must reference a priority level'));
  return causes;
}

function queuingCauses(q: JsonObject, path: string): FieldCause[] {
  const n = (f: string): number => (typeof q[f] === 'number' ? q[f] : 0);
  const causes: FieldCause[] = [];
  const limit = n('queueLengthLimit');
  if (limit <= 0) causes.push(invalid(`${path}.queueLengthLimit`, limit, 'must be positive'));
  const queues = n('queues');
  if (queues <= 0) causes.push(invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > 10_000_000) causes.push(invalid(`${path}.queues`, queues, 'must not be greater than 10000000'));
  const hand = n('handSize');
  if (hand <= 0) causes.push(invalid(`${path}.handSize`, hand, 'must be positive'));
  else if (hand > queues)
    causes.push(invalid(`${path}.handSize`, hand, `should not be greater than queues (${queues})`));
  return causes;
}

function limitResponseCauses(lr: JsonObject, path: string): FieldCause[] {
  switch (lr.type) {
    case 'Reject':
      return present(lr.queuing)
        ? [forbidden(`${path}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')]
        : [];
    case 'Queue':
      // v1 defaults the queuing of a Queue response (64 queues, hand size 8, 50 long).
      return present(lr.queuing) ? queuingCauses(objectAt(lr, 'queuing'), `${path}.queuing`) : [];
    default:
      return [notSupported(`${path}.type`, lr.type ?? '', ['Queue', 'Reject'])];
  }
}

function limitedCauses(l: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const shares = l.nominalConcurrencyShares;
  if (typeof shares === 'number' && shares < 0)
    causes.push(invalid(`${path}.nominalConcurrencyShares`, shares, 'must be a non-negative integer'));
  causes.push(...limitResponseCauses(objectAt(l, 'limitResponse'), `${path}.limitResponse`));
  const lp = l.lendablePercent;
  if (typeof lp === 'number' && !(lp >= 0 && lp <= 100))
    causes.push(invalid(`${path}.lendablePercent`, lp, 'must be between 0 and 100, inclusive'));
  const bp = l.borrowingLimitPercent;
  if (typeof bp === 'number' && bp < 0)
    causes.push(invalid(`${path}.borrowingLimitPercent`, bp, 'if specified, must be a non-negative integer'));
  return causes;
}

export function priorityLevelCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  const type = spec.type ?? '';
  if ((nameOf(obj) === 'exempt') !== (type === 'Exempt'))
    causes.push(invalid('spec.type', type, "must be 'Exempt' if and only if `name` is 'exempt'"));
  switch (type) {
    case 'Exempt':
      if (present(spec.limited)) causes.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
      break;
    case 'Limited':
      if (present(spec.exempt)) causes.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!present(spec.limited)) causes.push(required('spec.limited', 'must not be empty when type is Limited'));
      else causes.push(...limitedCauses(objectAt(spec, 'limited'), 'spec.limited'));
      break;
    default:
      causes.push(notSupported('spec.type', type, ['Exempt', 'Limited']));
  }
  return causes;
}
