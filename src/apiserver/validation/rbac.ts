// Part of kube-apiserver's RBAC validation (kubernetes/kubernetes pkg/apis/rbac/validation/validation.go):
// ValidatePolicyRule for Roles and ClusterRoles, ValidateRoleBinding and ValidateClusterRoleBinding (the
// roleRef's group, kind and name; ValidateRoleBindingSubject), ValidateRoleBindingUpdate's fixed roleRef.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { pathSegmentErrors, str, subdomainErrors } from './checks.js';
import { semanticEqual } from './semantic-equal.js';

const RBAC = 'rbac.authorization.k8s.io';
const len = (v: JsonValue | undefined): number => (Array.isArray(v) ? v.length : 0);

function ruleCauses(rule: JsonObject, namespaced: boolean, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  if (!len(rule.verbs)) causes.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs)) {
    const urls = rule.nonResourceURLs ?? null;
    if (namespaced) {
      const detail = 'namespaced rules cannot apply to non-resource URLs';
      causes.push(invalid(`${path}.nonResourceURLs`, urls, detail));
    }
    if (len(rule.apiGroups) || len(rule.resources) || len(rule.resourceNames)) {
      const detail = 'rules cannot apply to both regular resources and non-resource URLs';
      causes.push(invalid(`${path}.nonResourceURLs`, urls, detail));
    }
    return causes;
  }
  if (!len(rule.apiGroups))
    causes.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (!len(rule.resources))
    causes.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return causes;
}

export function roleCauses(obj: JsonObject, namespaced: boolean): FieldCause[] {
  const rules = Array.isArray(obj.rules) ? obj.rules : [];
  return rules.flatMap((r, i) => (isObject(r) ? ruleCauses(r, namespaced, `rules[${i}]`) : []));
}

function subjectCauses(s: JsonObject, namespaced: boolean, path: string): FieldCause[] {
  const name = str(s.name);
  const group = str(s.apiGroup);
  const causes: FieldCause[] = name ? [] : [required(`${path}.name`)];
  switch (s.kind) {
    case 'ServiceAccount':
      if (name) for (const m of subdomainErrors(name)) causes.push(invalid(`${path}.name`, name, m));
      if (group) causes.push(notSupported(`${path}.apiGroup`, group, ['']));
      if (!namespaced && !str(s.namespace)) causes.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (group !== RBAC) causes.push(notSupported(`${path}.apiGroup`, group, [RBAC]));
      break;
    default:
      causes.push(notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

export function bindingCauses(obj: JsonObject, old: JsonObject | undefined, namespaced: boolean): FieldCause[] {
  const ref = isObject(obj.roleRef) ? obj.roleRef : {};
  const causes: FieldCause[] = [];
  if (ref.apiGroup !== RBAC) causes.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (typeof ref.kind !== 'string' || !kinds.includes(ref.kind))
    causes.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  const name = str(ref.name);
  if (!name) causes.push(required('roleRef.name'));
  else for (const m of pathSegmentErrors(name)) causes.push(invalid('roleRef.name', name, m));
  const subjects = Array.isArray(obj.subjects) ? obj.subjects : [];
  subjects.forEach((s, i) => {
    if (isObject(s)) causes.push(...subjectCauses(s, namespaced, `subjects[${i}]`));
  });
  if (old && !semanticEqual(obj.roleRef, old.roleRef))
    causes.push(invalid('roleRef', obj.roleRef ?? null, 'cannot change roleRef'));
  return causes;
}
