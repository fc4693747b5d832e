import { ApiError } from '../http/status.js';
import type { Authorizable } from './attributes.js';

/** 401 exactly as kube-apiserver answers it. */
export const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized', 'Unauthorized');

/**
 * 403 with kube-apiserver's message (endpoints/handlers/responsewriters/errors.go forbiddenMessage
 * inside apierrors.NewForbidden): `configmaps is forbidden: User "u" cannot create resource
 * "configmaps" in API group "" in the namespace "team-b"`, the RBAC reason appended when there is one.
 */
export function forbidden(a: Authorizable, reason: string): ApiError {
  const who = `User ${JSON.stringify(a.user.username)} cannot ${a.verb}`;
  const r = a.resource;
  let why: string;
  if (!r) why = `${who} path ${JSON.stringify(a.path)}`;
  else {
    const resource = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
    const scope = r.namespace ? `in the namespace ${JSON.stringify(r.namespace)}` : 'at the cluster scope';
    why = `${who} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(r.group)} ${scope}`;
  }
  if (reason) why += `: ${reason}`;
  if (!r) return new ApiError(403, 'Forbidden', `forbidden: ${why}`, {});
  const qualified = r.group ? `${r.resource}.${r.group}` : r.resource;
  const subject = r.name ? `${qualified} ${JSON.stringify(r.name)}` : qualified;
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${why}`, {
    ...(r.name ? { name: r.name } : {}),
    ...(r.group ? { group: r.group } : {}),
    kind: r.resource,
  });
}
