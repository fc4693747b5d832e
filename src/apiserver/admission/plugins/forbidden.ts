import { ApiError, type StatusDetails } from '../../http/status.js';
import { qualifiedResource } from '../../registry/types.js';
import type { PluginAttributes } from './types.js';

/**
 * admission.NewForbidden (k8s.io/apiserver/pkg/admission/errors.go) over apierrors.NewForbidden:
 * `pods "p" is forbidden: why`, or `pods is forbidden: why` when the request names no object yet.
 */
export function admissionForbidden(a: PluginAttributes, why: string): ApiError {
  const resource = qualifiedResource(a.t);
  const message = a.name ? `${resource} "${a.name}" is forbidden: ${why}` : `${resource} is forbidden: ${why}`;
  const details: StatusDetails = { kind: a.t.plural };
  if (a.name) details.name = a.name;
  if (a.t.group) details.group = a.t.group;
  return new ApiError(403, 'Forbidden', message, details);
}
