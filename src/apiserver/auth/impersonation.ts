import type { IncomingMessage } from 'node:http';
import { ApiError } from '../http/status.js';
import type { Authorizable, RequestAttributes } from './attributes.js';
import { forbidden } from './auth-errors.js';
import type { Decision } from './rbac/authorizer.js';
import {
  ALL_AUTHENTICATED,
  ALL_UNAUTHENTICATED,
  ANONYMOUS,
  parseServiceAccountUsername,
  serviceAccountGroups,
  type UserInfo,
} from './user-info.js';

const EXTRA_PREFIX = 'impersonate-extra-';

/**
 * kube-apiserver's impersonation filter (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go):
 * the Impersonate-User/-Group/-Uid/-Extra-* headers make the request act as another user, each
 * asked for separately with the `impersonate` verb (users or serviceaccounts, groups, uids,
 * userextras/<key>). A ServiceAccount impersonated without groups gets its own; every
 * impersonated user but system:anonymous gets system:authenticated, as kube-apiserver adds them.
 * Returns the requester unchanged when no header asks for anything.
 */
export function impersonate(
  req: IncomingMessage,
  requester: UserInfo,
  authorize: (a: Authorizable) => Decision,
): UserInfo {
  const h = req.headersDistinct;
  const username = h['impersonate-user']?.[0];
  const groups = h['impersonate-group'] ?? [];
  const uid = h['impersonate-uid']?.[0];
  const extra: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(h)) {
    if (name.startsWith(EXTRA_PREFIX) && values) extra[decodeExtraKey(name.slice(EXTRA_PREFIX.length))] = values;
  }
  if (username === undefined) {
    if (groups.length || uid !== undefined || Object.keys(extra).length) {
      throw new ApiError(
        500,
        'InternalError',
        'Internal error occurred: requested impersonation of groups, uid or extra without impersonating a user',
      );
    }
    return requester;
  }
  const check = (attrs: RequestAttributes) => {
    const a: Authorizable = { ...attrs, user: requester };
    const d = authorize(a);
    if (!d.allowed) throw forbidden(a, d.reason);
  };
  const sa = parseServiceAccountUsername(username);
  const asked = (
    resource: string,
    name: string,
    o: { group?: string; namespace?: string; subresource?: string } = {},
  ): RequestAttributes => ({
    verb: 'impersonate',
    path: '',
    resource: {
      group: o.group ?? '',
      version: '',
      resource,
      subresource: o.subresource ?? '',
      namespace: o.namespace ?? '',
      name,
    },
  });
  check(sa ? asked('serviceaccounts', sa.name, { namespace: sa.namespace }) : asked('users', username));
  for (const g of groups) check(asked('groups', g));
  for (const [key, values] of Object.entries(extra))
    for (const v of values) check(asked('userextras', v, { group: 'authentication.k8s.io', subresource: key }));
  if (uid !== undefined) check(asked('uids', uid, { group: 'authentication.k8s.io' }));

  const acting = sa && !groups.length ? serviceAccountGroups(sa.namespace) : [...groups];
  if (username !== ANONYMOUS && !acting.includes(ALL_AUTHENTICATED) && !acting.includes(ALL_UNAUTHENTICATED))
    acting.push(ALL_AUTHENTICATED);
  return {
    username,
    groups: acting,
    ...(uid !== undefined ? { uid } : {}),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** Extra keys are percent-encoded in header names (kube: unescapeExtraKey). */
function decodeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
