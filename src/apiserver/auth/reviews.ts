import { errors } from '../http/status.js';
import type { JsonObject } from '../registry/types.js';
import type { Authorizable, RequestAttributes } from './attributes.js';
import type { RbacAuthorizer } from './rbac/authorizer.js';
import type { PolicyRule } from './rbac/rules.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';
import { withAuthenticated, type UserInfo } from './user-info.js';

/** What a review answers with: the request echoed with its status, as kube-apiserver's review storage does. */
type Review = (body: JsonObject, requester: UserInfo, namespace: string) => Promise<JsonObject> | JsonObject;

interface ReviewDeps {
  authorizer: RbacAuthorizer;
  tokens: ServiceAccountTokens;
}

const AUTHZ = 'authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';

/** The review resources, by `group/resource` (all create-only and never stored). */
export function reviewHandlers(deps: ReviewDeps): ReadonlyMap<string, Review> {
  const decide = (user: UserInfo, spec: JsonObject, namespace?: string): JsonObject => {
    const attrs = accessAttributes(spec, namespace);
    const d = deps.authorizer.authorize({ ...attrs, user });
    return { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) };
  };
  const subject = (spec: JsonObject): UserInfo => {
    const user = typeof spec.user === 'string' ? spec.user : '';
    if (!user && !Array.isArray(spec.groups))
      throw errors.badRequest('spec.user: at least one of user or group must be specified');
    return {
      username: user,
      groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [],
      ...(typeof spec.uid === 'string' ? { uid: spec.uid } : {}),
    };
  };
  return new Map<string, Review>([
    [
      `${AUTHZ}/selfsubjectaccessreviews`,
      (body, user) => review(body, 'SelfSubjectAccessReview', AUTHZ, decide(user, specOf(body))),
    ],
    [
      `${AUTHZ}/subjectaccessreviews`,
      (body) => review(body, 'SubjectAccessReview', AUTHZ, decide(subject(specOf(body)), specOf(body))),
    ],
    [
      `${AUTHZ}/localsubjectaccessreviews`,
      (body, _user, ns) =>
        review(body, 'LocalSubjectAccessReview', AUTHZ, decide(subject(specOf(body)), specOf(body), ns)),
    ],
    [
      `${AUTHZ}/selfsubjectrulesreviews`,
      (body, user) => {
        const ns = typeof specOf(body).namespace === 'string' ? String(specOf(body).namespace) : '';
        return review(body, 'SelfSubjectRulesReview', AUTHZ, rulesReview(deps.authorizer, user, ns));
      },
    ],
    [
      `${AUTHN}/selfsubjectreviews`,
      (body, user) => review(body, 'SelfSubjectReview', AUTHN, { userInfo: userInfoJson(user) }),
    ],
    [
      `${AUTHN}/tokenreviews`,
      async (body) => {
        const spec = specOf(body);
        const token = typeof spec.token === 'string' ? spec.token : '';
        const audiences =
          Array.isArray(spec.audiences) && spec.audiences.length
            ? spec.audiences.map(String)
            : deps.tokens.defaultAudiences;
        const user = token ? await deps.tokens.authenticate(token, audiences) : undefined;
        return review(
          body,
          'TokenReview',
          AUTHN,
          user
            ? { authenticated: true, user: userInfoJson(withAuthenticated(user)), audiences }
            : { authenticated: false, error: 'invalid bearer token' },
        );
      },
    ],
  ]);
}

function specOf(body: JsonObject): JsonObject {
  return body.spec && typeof body.spec === 'object' && !Array.isArray(body.spec) ? (body.spec as JsonObject) : {};
}

function review(body: JsonObject, kind: string, group: string, status: JsonObject): JsonObject {
  return { kind, apiVersion: `${group}/v1`, metadata: { creationTimestamp: null }, spec: specOf(body), status };
}

/** spec.resourceAttributes or spec.nonResourceAttributes as the authorizer's attributes. */
function accessAttributes(spec: JsonObject, namespace?: string): RequestAttributes {
  const r = spec.resourceAttributes as Record<string, unknown> | undefined;
  const n = spec.nonResourceAttributes as Record<string, unknown> | undefined;
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  if (r) {
    return {
      verb: s(r.verb),
      path: '',
      resource: {
        group: s(r.group),
        version: s(r.version),
        resource: s(r.resource),
        subresource: s(r.subresource),
        namespace: namespace ?? s(r.namespace),
        name: s(r.name),
      },
    };
  }
  if (n) return { verb: s(n.verb), path: s(n.path) };
  throw errors.badRequest('spec: exactly one of nonResourceAttributes or resourceAttributes must be specified');
}

/** The rules in scope, one entry per rule of each binding, split as SubjectRulesReviewStatus splits them. */
function rulesReview(authorizer: RbacAuthorizer, user: UserInfo, namespace: string): JsonObject {
  const { rules, errors: bindingErrors } = authorizer.index.rulesFor(user, namespace);
  const resourceRules: JsonObject[] = [];
  const nonResourceRules: JsonObject[] = [];
  for (const rule of rules.flat() as PolicyRule[]) {
    if (rule.nonResourceURLs?.length)
      nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
    else
      resourceRules.push({
        verbs: rule.verbs,
        ...(rule.apiGroups ? { apiGroups: rule.apiGroups } : {}),
        ...(rule.resources ? { resources: rule.resources } : {}),
        ...(rule.resourceNames ? { resourceNames: rule.resourceNames } : {}),
      });
  }
  return {
    resourceRules,
    nonResourceRules,
    incomplete: bindingErrors.length > 0,
    ...(bindingErrors.length ? { evaluationError: bindingErrors.join(', ') } : {}),
  };
}

export function userInfoJson(user: UserInfo): JsonObject {
  return {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    groups: user.groups,
    ...(user.extra ? { extra: user.extra } : {}),
  };
}

/** The attributes of a review or token request: true when this request is one of them. */
export const isReview = (a: Authorizable, handlers: ReadonlyMap<string, Review>): boolean =>
  !!a.resource && handlers.has(`${a.resource.group}/${a.resource.resource}`);
