import { errors } from '../http/status.js';
import { isViewGroup } from '../crd/view-groups.js';
import type { ResourceType } from '../registry/types.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Kinds whose names are path segments of other things and so must be DNS labels. */
const LABEL_NAMED = new Set(['Namespace', 'Service']);

/** RBAC names are path segments, nothing more: kube-apiserver only forbids '/', '%' and '.'/'..'. */
const PATH_SEGMENT_NAMED = new Set(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

export function validateName(t: ResourceType, name: string): void {
  // Δ-controller views take any name that can be a URL path segment (kube-apiserver's REST layer rule).
  if ((PATH_SEGMENT_NAMED.has(t.kind) && t.group === 'rbac.authorization.k8s.io') || (t.custom && isViewGroup(t.group))) {
    if (name === '.' || name === '..' || /[/%]/.test(name)) {
      throw errors.invalid(t, name, [{ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": may not contain '/' or '%'`, field: 'metadata.name' }]);
    }
    return;
  }
  if (!t.group && LABEL_NAMED.has(t.kind)) {
    if (name.length > 63 || !DNS1123_LABEL.test(name)) {
      throw errors.invalid(t, name, [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${name}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
          field: 'metadata.name',
        },
      ]);
    }
    return;
  }
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    throw errors.invalid(t, name, [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        field: 'metadata.name',
      },
    ]);
  }
}
