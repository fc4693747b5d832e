// Part of kube-apiserver's DRA validation (kubernetes/kubernetes pkg/apis/resource/validation/validation.go):
// validateResourceClaimSpec's requests (validateDeviceRequest: a DNS-label name, exactly one of `exactly` or
// `firstAvailable`; validateExactDeviceRequest's class and validateDeviceAllocationMode), ValidateResourceClaimUpdate
// and ValidateResourceClaimTemplateUpdate's fixed spec. v1's defaults are read where this server does not store
// them (allocationMode ExactCount, count 1). Selectors, constraints, config and ResourceSlices are stored unchecked.
import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';
import { forbidden, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { goSemanticEqual } from '../protobuf/index.js';
import { IMMUTABLE, str, subdomainErrors } from './checks.js';
import { semanticEqual } from './semantic-equal.js';
import { dns1123LabelErrors } from './dns.js';
import { objectAt } from './pod-spec.js';

function allocationCauses(r: JsonObject, path: string): FieldCause[] {
  const mode = r.allocationMode ?? 'ExactCount';
  const count = typeof r.count === 'number' ? r.count : 0;
  if (mode === 'All')
    return count !== 0 ? [invalid(`${path}.count`, count, "must not be specified when allocationMode is 'All'")] : [];
  if (mode === 'ExactCount') return count < 0 ? [invalid(`${path}.count`, count, 'must be greater than zero')] : [];
  return [notSupported(`${path}.allocationMode`, mode, ['All', 'ExactCount'])];
}

function classCauses(r: JsonObject, path: string): FieldCause[] {
  const c = str(r.deviceClassName);
  return c ? subdomainErrors(c).map((m) => invalid(path, c, m)) : [required(path)];
}

function requestCauses(req: JsonObject, path: string): FieldCause[] {
  const name = str(req.name);
  const causes = dns1123LabelErrors(name).map((m) => invalid(`${path}.name`, name, m));
  const first = Array.isArray(req.firstAvailable) && req.firstAvailable.length > 0;
  const exactly = isObject(req.exactly);
  if (exactly) {
    const e = objectAt(req, 'exactly');
    causes.push(...classCauses(e, `${path}.exactly.deviceClassName`), ...allocationCauses(e, `${path}.exactly`));
  }
  if (!first && !exactly) causes.push(required(path, 'exactly one of `exactly` or `firstAvailable` is required'));
  if (first && exactly) {
    const detail = 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set';
    causes.push(invalid(path, null, detail));
  }
  return causes;
}

function claimSpecCauses(spec: JsonObject, path: string): FieldCause[] {
  const requests = objectAt(spec, 'devices').requests;
  const list = Array.isArray(requests) ? requests : [];
  return list.flatMap((r, i) => (isObject(r) ? requestCauses(r, `${path}.devices.requests[${i}]`) : []));
}

/** ValidateImmutableField over a spec of Go type `message`, whose pointer fields count when set to a zero value. */
function immutableSpec(message: string, obj: JsonObject, old: JsonObject): FieldCause[] {
  return goSemanticEqual(`k8s.io.api.resource.v1.${message}`, obj.spec, old.spec, semanticEqual)
    ? []
    : [invalid('spec', obj.spec ?? null, IMMUTABLE)];
}

export function resourceClaimCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const causes = claimSpecCauses(objectAt(obj, 'spec'), 'spec');
  return old ? [...immutableSpec('ResourceClaimSpec', obj, old), ...causes] : causes;
}

export function resourceClaimTemplateCauses(obj: JsonObject, old: JsonObject | undefined): FieldCause[] {
  const causes = claimSpecCauses(objectAt(objectAt(obj, 'spec'), 'spec'), 'spec.spec');
  return old ? [...immutableSpec('ResourceClaimTemplateSpec', obj, old), ...causes] : causes;
}

const ADMIN_LABEL = 'resource.kubernetes.io/admin-access';

/**
 * resourceutils.AuthorizedForAdmin (pkg/registry/resource/utils.go): a claim's or a claim template's
 * first request with adminAccess true needs its namespace labelled for admin access (DRAAdminAccess is
 * on in v1.34). The path is the claim's, for a template too.
 */
export function adminAccessCauses(
  t: { group: string; kind: string },
  obj: JsonObject,
  namespaceLabels: (name: string) => JsonObject | undefined,
): FieldCause[] {
  if (t.group !== 'resource.k8s.io') return [];
  const spec = objectAt(obj, 'spec');
  const claimSpec =
    t.kind === 'ResourceClaim' ? spec : t.kind === 'ResourceClaimTemplate' ? objectAt(spec, 'spec') : undefined;
  if (!claimSpec) return [];
  const requests = objectAt(claimSpec, 'devices').requests;
  const i = (Array.isArray(requests) ? requests : []).findIndex(
    (r) => isObject(r) && isObject(r.exactly) && r.exactly.adminAccess === true,
  );
  if (i < 0) return [];
  const namespace = objectAt(obj, 'metadata').namespace;
  const labels = namespaceLabels(typeof namespace === 'string' ? namespace : '');
  if (labels?.[ADMIN_LABEL] === 'true') return [];
  return [
    forbidden(
      `spec.devices.requests[${i}].adminAccess`,
      `admin access to devices requires the \`${ADMIN_LABEL}: true\` label on the containing namespace`,
    ),
  ];
}
