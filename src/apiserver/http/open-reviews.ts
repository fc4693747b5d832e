import type { JsonObject, ResourceType } from '../registry/types.js';

/**
 * The review kinds as kube-apiserver answers them with `--authorization-mode=AlwaysAllow` and no
 * authentication (the embedded server's open mode): every access allowed, every requester anonymous.
 * With auth on, the auth gate answers them before this (auth/reviews.ts).
 */
export function answerOpenModeReview(t: ResourceType, body: JsonObject): JsonObject {
  const spec = body.spec && typeof body.spec === 'object' && !Array.isArray(body.spec) ? body.spec : {};
  const echo = (status: JsonObject): JsonObject => ({
    kind: t.kind,
    apiVersion: `${t.group}/${t.version}`,
    metadata: { creationTimestamp: null },
    spec,
    status,
  });
  switch (t.kind) {
    case 'SelfSubjectReview':
      return {
        kind: t.kind,
        apiVersion: `${t.group}/${t.version}`,
        metadata: { creationTimestamp: null },
        status: { userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] } },
      };
    case 'TokenReview':
      return echo({
        user: {},
        error: 'no token authenticator is configured (the embedded API server runs without auth)',
      });
    case 'SelfSubjectRulesReview':
      return echo({
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      });
    default:
      return echo({ allowed: true });
  }
}
