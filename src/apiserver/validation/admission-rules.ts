// The rule and match checks the admissionregistration.k8s.io kinds share, as kube-apiserver words them
// (kubernetes/kubernetes pkg/apis/admissionregistration/validation/validation.go): validateResources,
// validateResourcesNoSubResources, validateRule, validateRuleWithOperations, validateNamedRuleWithOperations,
// validateMatchResources, validateMatchConditions (CEL compiled as far as cel-compile.ts goes), and
// validateAdmissionReviewVersions.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { duplicate, invalid, notSupported, required, tooMany } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { pathSegmentErrors, str } from './checks.js';
import { celCompileCauses } from './cel-compile.js';
import { dns1035LabelErrors } from './dns.js';
import { labelSelectorCauses } from './label-selector.js';

export const FAILURE_POLICIES = ['Fail', 'Ignore'];
export const MATCH_POLICIES = ['Equivalent', 'Exact'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

export const strings = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
export const maps = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const hasWildcard = (xs: JsonValue[]): boolean => xs.includes('*');
const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

function resourcesCauses(resources: JsonValue[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  if (!resources.length) causes.push(required(path));
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let double = false;
  let single = false;
  let plain = false;
  resources.forEach((r, i) => {
    const rs = str(r);
    if (rs === '') {
      causes.push(required(`${path}[${i}]`));
      return;
    }
    if (rs === '*/*') double = true;
    if (rs === '*') single = true;
    const slash = rs.indexOf('/');
    if (slash < 0) {
      plain = rs !== '*';
      return;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (wildSub.has(res)) causes.push(invalid(`${path}[${i}]`, rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (wildRes.has(sub)) causes.push(invalid(`${path}[${i}]`, rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') wildSub.add(res);
    if (res === '*') wildRes.add(sub);
  });
  if (resources.length > 1 && double) {
    causes.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  }
  if (single && plain) {
    causes.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  return causes;
}

/** validateRule with subresources allowed (every caller in v1 allows them). */
function ruleCauses(rule: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const groups = strings(rule.apiGroups);
  if (!groups.length) causes.push(required(`${path}.apiGroups`));
  if (groups.length > 1 && hasWildcard(groups)) {
    causes.push(invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  }
  const versions = strings(rule.apiVersions);
  if (!versions.length) causes.push(required(`${path}.apiVersions`));
  if (versions.length > 1 && hasWildcard(versions)) {
    causes.push(invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  }
  versions.forEach((v, i) => {
    if (str(v) === '') causes.push(required(`${path}.apiVersions[${i}]`));
  });
  causes.push(...resourcesCauses(strings(rule.resources), `${path}.resources`));
  if (isSet(rule.scope) && !SCOPES.includes(str(rule.scope))) {
    causes.push(notSupported(`${path}.scope`, rule.scope, SCOPES));
  }
  return causes;
}

export function ruleWithOperationsCauses(rule: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const ops = strings(rule.operations);
  if (!ops.length) causes.push(required(`${path}.operations`));
  if (ops.length > 1 && hasWildcard(ops)) {
    causes.push(invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
  }
  ops.forEach((o, i) => {
    if (!OPERATIONS.includes(str(o))) causes.push(notSupported(`${path}.operations[${i}]`, o, OPERATIONS));
  });
  return [...causes, ...ruleCauses(rule, path)];
}

function namedRuleCauses(rule: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((n, i) => {
    const name = str(n);
    for (const m of pathSegmentErrors(name)) causes.push(invalid(`${path}.resourceNames[${i}]`, name, m));
    if (seen.has(name)) causes.push(duplicate(`${path}.resourceNames[${i}]`, name));
    else seen.add(name);
  });
  return [...causes, ...ruleWithOperationsCauses(rule, path)];
}

/** validateMatchResources (after v1's defaults: matchPolicy Equivalent, empty selectors). */
export function matchResourcesCauses(mc: JsonValue | undefined, path: string): FieldCause[] {
  if (!isObject(mc)) return [];
  const causes: FieldCause[] = [];
  if (!isSet(mc.matchPolicy)) causes.push(required(`${path}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(str(mc.matchPolicy))) {
    causes.push(notSupported(`${path}.matchPolicy`, mc.matchPolicy, MATCH_POLICIES));
  }
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (!isSet(mc[key])) causes.push(required(`${path}.${key}`));
    else causes.push(...labelSelectorCauses(mc[key], `${path}.${key}`));
  }
  for (const [i, r] of maps(mc.resourceRules).entries()) {
    causes.push(...namedRuleCauses(r, `${path}.resourceRules[${i}]`));
  }
  for (const [i, r] of maps(mc.excludeResourceRules).entries()) {
    causes.push(...namedRuleCauses(r, `${path}.excludeResourceRules[${i}]`));
  }
  return causes;
}

/** What every admission expression may name (compile.go's base environment, with the authorizer). */
export const CEL_BASE = ['object', 'oldObject', 'request', 'namespaceObject', 'authorizer'];

/** validateMatchConditions: names, and expressions compiled as far as cel-compile.ts goes. */
export function matchConditionsCauses(v: JsonValue | undefined, path: string, params = false): FieldCause[] {
  const list = maps(v);
  const causes: FieldCause[] = [];
  if (list.length > 64) causes.push(tooMany(path, list.length, 64));
  const seen = new Set<string>();
  list.forEach((m, i) => {
    const expression = str(m.expression).trim();
    if (expression === '') causes.push(required(`${path}[${i}].expression`));
    else {
      const declared = params ? [...CEL_BASE, 'params'] : CEL_BASE;
      causes.push(...celCompileCauses(expression, declared, 'bool', `${path}[${i}].expression`));
    }
    const name = str(m.name);
    if (!name) causes.push(required(`${path}[${i}].name`));
    else for (const e of qualifiedNameErrors(name)) causes.push(invalid(`${path}[${i}].name`, name, e));
    if (name) {
      if (seen.has(name)) causes.push(duplicate(`${path}[${i}].name`, name));
      else seen.add(name);
    }
  });
  return causes;
}

/** validateAdmissionReviewVersions. */
export function reviewVersionsCauses(v: JsonValue | undefined, requireKnown: boolean, path: string): FieldCause[] {
  const versions = strings(v);
  if (!versions.length) return [required(path, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  let known = false;
  versions.forEach((x, i) => {
    const s = str(x);
    if (seen.has(s)) {
      causes.push(invalid(`${path}[${i}]`, s, 'duplicate version'));
      return;
    }
    seen.add(s);
    for (const e of dns1035LabelErrors(s)) causes.push(invalid(`${path}[${i}]`, s, e));
    if (REVIEW_VERSIONS.includes(s)) known = true;
  });
  if (requireKnown && !known) {
    causes.push(invalid(path, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  }
  return causes;
}
