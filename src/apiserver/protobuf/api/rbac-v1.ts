import { objectMeta, string } from '../scalars.js';
import { list, message, nullList, ptr, req } from '../schema.js';
import { labelSelector } from './meta-v1.js';

/** rbac.authorization.k8s.io/v1 kinds `kubectl create role|clusterrole|rolebinding|clusterrolebinding` send. */

const policyRule = message('PolicyRule', () => [
  [1, 'verbs', nullList(string)],
  [2, 'apiGroups', list(string)],
  [3, 'resources', list(string)],
  [4, 'resourceNames', list(string)],
  [5, 'nonResourceURLs', list(string)],
]);

const subject = message('Subject', () => [
  [1, 'kind', req(string)],
  [2, 'apiGroup', string],
  [3, 'name', req(string)],
  [4, 'namespace', string],
]);

const roleRef = message('RoleRef', () => [
  [1, 'apiGroup', req(string)],
  [2, 'kind', req(string)],
  [3, 'name', req(string)],
]);

const role = message('Role', () => [
  [1, 'metadata', objectMeta],
  [2, 'rules', nullList(policyRule)],
]);

const clusterRole = message('ClusterRole', () => [
  [1, 'metadata', objectMeta],
  [2, 'rules', nullList(policyRule)],
  [3, 'aggregationRule', ptr(message('AggregationRule', () => [[1, 'clusterRoleSelectors', list(labelSelector)]]))],
]);

const bindingRows = () =>
  [
    [1, 'metadata', objectMeta],
    [2, 'subjects', list(subject)],
    [3, 'roleRef', roleRef],
  ] as const;

const GROUP = 'rbac.authorization.k8s.io/v1';

export const RBAC_V1 = {
  [`${GROUP}/Role`]: role,
  [`${GROUP}/ClusterRole`]: clusterRole,
  [`${GROUP}/RoleBinding`]: message('RoleBinding', bindingRows),
  [`${GROUP}/ClusterRoleBinding`]: message('ClusterRoleBinding', bindingRows),
};
