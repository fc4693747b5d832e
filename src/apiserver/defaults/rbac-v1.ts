import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';

/**
 * pkg/apis/rbac/v1/defaults.go SetDefaults_Subject: a subject without apiGroup gets its kind's
 * (none for a ServiceAccount, rbac.authorization.k8s.io for a User or Group), so validation sees it.
 */
export function defaultRoleBinding(obj: JsonObject): void {
  // SetDefaults_RoleBinding / SetDefaults_ClusterRoleBinding: the roleRef's group is RBAC's when unset.
  if (isObject(obj.roleRef) && (obj.roleRef.apiGroup === undefined || obj.roleRef.apiGroup === ''))
    obj.roleRef.apiGroup = 'rbac.authorization.k8s.io';
  if (!Array.isArray(obj.subjects)) return;
  for (const s of obj.subjects) {
    if (!isObject(s) || (s.apiGroup !== undefined && s.apiGroup !== '')) continue;
    // A ServiceAccount's group is "", which Go's omitempty leaves out of the stored object.
    if (s.kind === 'ServiceAccount') delete s.apiGroup;
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = 'rbac.authorization.k8s.io';
  }
}
