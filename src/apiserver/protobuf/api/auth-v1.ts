import { bool, int, objectMeta, string } from '../scalars.js';
import { list, message, ptr } from '../schema.js';

/**
 * authentication.k8s.io/v1 and authorization.k8s.io/v1 kinds kubectl sends as protobuf:
 * `create token` (TokenRequest), `auth whoami` (SelfSubjectReview), `auth can-i`
 * (SelfSubjectAccessReview, SelfSubjectRulesReview). The `extra` maps and the selector attributes
 * are not in the tables, so a body that has them is refused by name rather than misread.
 */

const AUTHN = 'authentication.k8s.io/v1';
const AUTHZ = 'authorization.k8s.io/v1';

const boundObjectRef = message('BoundObjectReference', () => [
  [1, 'kind', string],
  [2, 'apiVersion', string],
  [3, 'name', string],
  [4, 'uid', string],
]);

const userInfo = message('UserInfo', () => [
  [1, 'username', string],
  [2, 'uid', string],
  [3, 'groups', list(string)],
]);

const tokenRequest = message('TokenRequest', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', message('TokenRequestSpec', () => [
    [1, 'audiences', list(string)],
    [3, 'boundObjectRef', ptr(boundObjectRef)],
    [4, 'expirationSeconds', ptr(int)],
  ])],
  [3, 'status', message('TokenRequestStatus', () => [[1, 'token', string]])],
]);

const tokenReview = message('TokenReview', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', message('TokenReviewSpec', () => [
    [1, 'token', string],
    [2, 'audiences', list(string)],
  ])],
  [3, 'status', message('TokenReviewStatus', () => [[1, 'authenticated', bool]])],
]);

const resourceAttributes = message('ResourceAttributes', () => [
  [1, 'namespace', string],
  [2, 'verb', string],
  [3, 'group', string],
  [4, 'version', string],
  [5, 'resource', string],
  [6, 'subresource', string],
  [7, 'name', string],
]);

const nonResourceAttributes = message('NonResourceAttributes', () => [
  [1, 'path', string],
  [2, 'verb', string],
]);

const accessReviewStatus = message('SubjectAccessReviewStatus', () => [
  [1, 'allowed', bool],
  [2, 'reason', string],
  [3, 'evaluationError', string],
  [4, 'denied', bool],
]);

const subjectAccessReviewRows = () =>
  [
    [1, 'metadata', objectMeta],
    [2, 'spec', message('SubjectAccessReviewSpec', () => [
      [1, 'resourceAttributes', ptr(resourceAttributes)],
      [2, 'nonResourceAttributes', ptr(nonResourceAttributes)],
      [3, 'user', string],
      [4, 'groups', list(string)],
      [6, 'uid', string],
    ])],
    [3, 'status', accessReviewStatus],
  ] as const;

export const AUTH_V1 = {
  [`${AUTHN}/TokenRequest`]: tokenRequest,
  [`${AUTHN}/TokenReview`]: tokenReview,
  [`${AUTHN}/SelfSubjectReview`]: message('SelfSubjectReview', () => [
    [1, 'metadata', objectMeta],
    [2, 'status', message('SelfSubjectReviewStatus', () => [[1, 'userInfo', userInfo]])],
  ]),
  [`${AUTHZ}/SelfSubjectAccessReview`]: message('SelfSubjectAccessReview', () => [
    [1, 'metadata', objectMeta],
    [2, 'spec', message('SelfSubjectAccessReviewSpec', () => [
      [1, 'resourceAttributes', ptr(resourceAttributes)],
      [2, 'nonResourceAttributes', ptr(nonResourceAttributes)],
    ])],
    [3, 'status', accessReviewStatus],
  ]),
  [`${AUTHZ}/SelfSubjectRulesReview`]: message('SelfSubjectRulesReview', () => [
    [1, 'metadata', objectMeta],
    [2, 'spec', message('SelfSubjectRulesReviewSpec', () => [[1, 'namespace', string]])],
    [3, 'status', message('SubjectRulesReviewStatus', () => [[3, 'incomplete', bool]])],
  ]),
  [`${AUTHZ}/SubjectAccessReview`]: message('SubjectAccessReview', subjectAccessReviewRows),
  [`${AUTHZ}/LocalSubjectAccessReview`]: message('LocalSubjectAccessReview', subjectAccessReviewRows),
};
