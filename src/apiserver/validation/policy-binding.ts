// kube-apiserver's validateValidatingAdmissionPolicyBindingSpec (kubernetes/kubernetes
// pkg/apis/admissionregistration/validation/validation.go): policyName, validateParamRef and
// validateMatchResources (admission-rules.ts) and validateValidationActions.
import type { JsonObject } from '../registry/types.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { pathSegmentErrors, str, subdomainErrors } from './checks.js';
import { labelSelectorCauses } from './label-selector.js';
import { objectAt } from './pod-spec.js';
import { matchResourcesCauses } from './admission-rules.js';

const ACTIONS = ['Audit', 'Deny', 'Warn'];

function paramRefCauses(spec: JsonObject): FieldCause[] {
  if (spec.paramRef === undefined || spec.paramRef === null) return [];
  const pr = objectAt(spec, 'paramRef');
  const path = 'spec.paramRef';
  const name = str(pr.name);
  const hasSelector = pr.selector !== undefined && pr.selector !== null;
  const causes: FieldCause[] = [];
  const exclusive = 'name and selector are mutually exclusive';
  if (name) {
    causes.push(...pathSegmentErrors(name).map((m) => invalid(`${path}.name`, name, m)));
    if (hasSelector) causes.push(forbidden(`${path}.name`, exclusive));
  }
  if (hasSelector) {
    causes.push(...labelSelectorCauses(pr.selector, `${path}.selector`));
    if (name) causes.push(forbidden(`${path}.selector`, exclusive));
  }
  if (!name && !hasSelector) causes.push(required(path, 'one of name or selector must be specified'));
  const action = str(pr.parameterNotFoundAction);
  if (!action) causes.push(required(`${path}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow')
    causes.push(notSupported(`${path}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return causes;
}

function actionCauses(spec: JsonObject): FieldCause[] {
  const va = Array.isArray(spec.validationActions) ? spec.validationActions : [];
  const path = 'spec.validationActions';
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  va.forEach((a, i) => {
    const s = str(a);
    if (!ACTIONS.includes(s)) causes.push(notSupported(`${path}[${i}]`, a, ACTIONS));
    if (seen.has(s)) causes.push(duplicate(`${path}[${i}]`, a));
    seen.add(s);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    const detail =
      'must not contain both Deny and Warn (repeating the same validation failure information in the API ' +
      'response and headers serves no purpose)';
    causes.push(invalid(path, va, detail));
  }
  if (!seen.size) causes.push(required(path, 'at least one validation action is required'));
  return causes;
}

export function policyBindingCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const name = str(spec.policyName);
  const causes: FieldCause[] = name
    ? subdomainErrors(name).map((m) => invalid('spec.policyName', name, m))
    : [required('spec.policyName')];
  const match = matchResourcesCauses(spec.matchResources, 'spec.matchResources');
  return [...causes, ...paramRefCauses(spec), ...match, ...actionCauses(spec)];
}
