// kube-apiserver's validateValidatingAdmissionPolicySpec (kubernetes/kubernetes
// pkg/apis/admissionregistration/validation/validation.go, with validateParamKind, validateMatchResources,
// validateVariable, validateValidation and validateAuditAnnotation) and validateMatchResources of a binding.
// CEL is compiled as far as cel-compile.ts goes (parse, declared names, a constant's type). v1's defaults are
// applied before (admission/config-storage.ts).
import type { JsonObject, JsonValue } from '../registry/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { duplicate, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { str, subdomainErrors } from './checks.js';
import { dns1035LabelErrors } from './dns.js';
import { CEL_BASE, FAILURE_POLICIES, maps, matchConditionsCauses, matchResourcesCauses } from './admission-rules.js';
import { celCompileCauses } from './cel-compile.js';
import { objectAt } from './pod-spec.js';

const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION = 5 * 1024;
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);
const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

function paramKindCauses(pk: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const av = str(pk.apiVersion);
  if (!av) causes.push(required(`${path}.apiVersion`));
  else if ((av.match(/\//g) ?? []).length > 1) {
    causes.push(invalid(`${path}.apiVersion`, av, `unexpected GroupVersion string: ${av}`));
  } else if (av !== '/') {
    const slash = av.indexOf('/');
    const group = slash < 0 ? '' : av.slice(0, slash);
    const version = slash < 0 ? av : av.slice(slash + 1);
    const groupErrs = group ? subdomainErrors(group) : [];
    if (groupErrs.length) causes.push(invalid(`${path}.apiVersion`, group, groupErrs.join(',')));
    if (!version) causes.push(invalid(`${path}.apiVersion`, av, 'version must be specified'));
    else {
      const errs = dns1035LabelErrors(version);
      if (errs.length) causes.push(invalid(`${path}.apiVersion`, version, errs.join(',')));
    }
  } else causes.push(invalid(`${path}.apiVersion`, av, 'version must be specified'));
  const kind = str(pk.kind);
  if (!kind) causes.push(required(`${path}.kind`));
  else {
    const errs = dns1035LabelErrors(kind.toLowerCase());
    if (errs.length) {
      causes.push(invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
    }
  }
  return causes;
}

function variableCauses(v: JsonObject, env: string[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = str(v.name);
  if (name.trim() === '') causes.push(required(`${path}.name`, 'name is not specified'));
  else if (!CEL_IDENTIFIER.test(name) || CEL_RESERVED.has(name)) {
    causes.push(invalid(`${path}.name`, name, 'must be a valid CEL identifier'));
  }
  const expression = str(v.expression);
  if (expression.trim() === '') causes.push(required(`${path}.expression`, 'expression is not specified'));
  else causes.push(...celCompileCauses(expression, env, 'any', `${path}.expression`));
  return causes;
}

function validationCauses(v: JsonObject, env: string[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const expression = str(v.expression);
  if (expression.trim() === '') causes.push(required(`${path}.expression`, 'expression is not specified'));
  else causes.push(...celCompileCauses(expression, env, 'bool', `${path}.expression`));
  const me = str(v.messageExpression);
  if (me.length > 0 && me.trim() === '') {
    causes.push(invalid(`${path}.messageExpression`, me, 'must be non-empty if specified'));
  } else if (me.trim()) causes.push(...celCompileCauses(me, env, 'string', `${path}.messageExpression`));
  const msg = str(v.message);
  if (msg.length > 0 && msg.trim() === '') {
    causes.push(invalid(`${path}.message`, msg, 'must be non-empty if specified'));
  } else if (/[\n\r]/.test(msg.trim())) causes.push(invalid(`${path}.message`, msg, 'must not contain line breaks'));
  if (isSet(v.reason) && !REASONS.includes(str(v.reason))) {
    causes.push(notSupported(`${path}.reason`, v.reason, REASONS));
  }
  return causes;
}

function auditAnnotationCauses(policyName: string, a: JsonObject, env: string[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const key = str(a.key);
  if (policyName) {
    const full = `${policyName}/${key}`;
    for (const e of qualifiedNameErrors(full)) causes.push(invalid(`${path}.key`, full, e));
  } else causes.push(invalid(`${path}.key`, key, 'requires metadata.name be non-empty'));
  const ve = str(a.valueExpression).trim();
  if (!ve) causes.push(required(`${path}.valueExpression`, 'valueExpression is not specified'));
  else if (ve.length > MAX_VALUE_EXPRESSION) {
    causes.push(required(`${path}.valueExpression`, `must not exceed ${MAX_VALUE_EXPRESSION} bytes in length`));
  } else causes.push(...celCompileCauses(ve, env, 'any', `${path}.valueExpression`));
  return causes;
}

export function admissionPolicyCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  // A spec left out is Go's zero struct, which SetDefaults_ValidatingAdmissionPolicySpec gives
  // failurePolicy Fail like any other: it is never missing by the time it is validated.
  if (isSet(spec.failurePolicy) && !FAILURE_POLICIES.includes(str(spec.failurePolicy))) {
    causes.push(notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  }
  if (isSet(spec.paramKind)) causes.push(...paramKindCauses(objectAt(spec, 'paramKind'), 'spec.paramKind'));
  if (!isSet(spec.matchConstraints)) causes.push(required('spec.matchConstraints'));
  else {
    causes.push(...matchResourcesCauses(spec.matchConstraints, 'spec.matchConstraints'));
    if (!maps(objectAt(spec, 'matchConstraints').resourceRules).length) {
      causes.push(required('spec.matchConstraints.resourceRules'));
    }
  }
  const params = isSet(spec.paramKind);
  causes.push(...matchConditionsCauses(spec.matchConditions, 'spec.matchConditions', params));
  const variables = maps(spec.variables);
  const env = [...CEL_BASE, ...(params ? ['params'] : []), ...(variables.length ? ['variables'] : [])];
  for (const [i, v] of variables.entries()) causes.push(...variableCauses(v, env, `spec.variables[${i}]`));
  const validations = maps(spec.validations);
  const audits = maps(spec.auditAnnotations);
  if (!validations.length && !audits.length) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    causes.push(required('spec.validations', detail), required('spec.auditAnnotations', detail));
    return causes;
  }
  for (const [i, v] of validations.entries()) causes.push(...validationCauses(v, env, `spec.validations[${i}]`));
  if (audits.length > MAX_AUDIT_ANNOTATIONS) {
    const detail = `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`;
    causes.push(invalid('spec.auditAnnotations', spec.auditAnnotations, detail));
  }
  const policyName = str(objectAt(obj, 'metadata').name);
  const keys = new Set<string>();
  audits.forEach((a, i) => {
    causes.push(...auditAnnotationCauses(policyName, a, env, `spec.auditAnnotations[${i}]`));
    const key = str(a.key);
    if (keys.has(key)) causes.push(duplicate(`spec.auditAnnotations[${i}].key`, key));
    keys.add(key);
  });
  return causes;
}
