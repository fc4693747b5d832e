import { errors } from '../http/status.js';
import { isViewGroup } from '../crd/view-groups.js';
import type { ResourceType } from '../registry/types.js';
import { jobNameLabelCauses } from '../validation/batch.js';
import { ipAddressNameErrors } from '../validation/networking.js';
import { subdomainErrors } from '../validation/checks.js';
import { DNS1123_SUBDOMAIN, dns1035LabelErrors, dns1123LabelErrors } from '../validation/dns.js';
import { invalid } from '../schema/field-errors.js';
import { labelValueErrors } from '../selectors/label-validation.js';

/**
 * Kinds whose names are path segments of other things and so must be DNS labels (a StatefulSet's,
 * ValidateStatefulSetName: its pods are named after it, and pod hostnames are labels). A Service's
 * must be a DNS-1035 label (ValidateServiceName): no leading digit either.
 */
const LABEL_NAMED = new Set(['/Namespace', 'apps/StatefulSet']);

/**
 * Names that are path segments, nothing more: kube-apiserver only forbids '/', '%' and '.'/'..' for RBAC
 * (ValidateRBACName), CSRs (ValidateCertificateRequestName), PDBs (ValidatePodDisruptionBudget checks no name)
 * and core v1 Events (legacyValidateEvent checks no ObjectMeta; events.k8s.io/v1 ones are DNS subdomains).
 */
const PATH_SEGMENT_NAMED = new Set([
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'certificates.k8s.io/CertificateSigningRequest',
  'policy/PodDisruptionBudget',
  '/Event',
]);

export function validateName(t: ResourceType, name: string): void {
  if (t.group === 'apiregistration.k8s.io' && t.kind === 'APIService') return validateApiServiceName(t, name);
  if (t.group === 'networking.k8s.io' && t.kind === 'IPAddress') {
    const causes = ipAddressNameErrors(name).map((m) => invalid('metadata.name', name, m));
    if (causes.length) throw errors.invalid(t, name, causes);
    return;
  }
  // Δ-controller views take any name that can be a URL path segment (kube-apiserver's REST layer rule).
  if (PATH_SEGMENT_NAMED.has(`${t.group}/${t.kind}`) || (t.custom && isViewGroup(t.group))) {
    if (name === '.' || name === '..' || /[/%]/.test(name)) {
      throw errors.invalid(t, name, [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${name}": may not contain '/' or '%'`,
          field: 'metadata.name',
        },
      ]);
    }
    return;
  }
  // Go's IsDNS1123Label/Subdomain: the length and the pattern are separate errors, each a cause.
  const key = `${t.group}/${t.kind}`;
  const messages =
    key === '/Service'
      ? dns1035LabelErrors(name)
      : LABEL_NAMED.has(key)
        ? dns1123LabelErrors(name)
        : subdomainErrors(name);
  if (!messages.length) return;
  const causes = messages.map((m) => ({
    reason: 'FieldValueInvalid',
    message: `Invalid value: "${name}": ${m}`,
    field: 'metadata.name',
  }));
  // ValidateJob goes on past a bad name: the name is also the value of the template's job-name labels.
  // A Namespace's name is the value of its kubernetes.io/metadata.name label (namespaceStrategy's
  // PrepareForCreate sets it before ValidateObjectMeta checks the name, then the labels).
  const also =
    t.group === 'batch' && t.kind === 'Job'
      ? jobNameLabelCauses(name)
      : !t.group && t.kind === 'Namespace'
        ? labelValueErrors(name).map((m) => invalid('metadata.labels', name, m))
        : [];
  throw errors.invalid(t, name, [...causes, ...also]);
}

/**
 * kube-aggregator's ValidateAPIServiceName: `version.group`, the version a DNS-1035 label, the group a
 * DNS subdomain or empty (`v1.` is the core group's).
 */
function validateApiServiceName(t: ResourceType, name: string): void {
  const dot = name.indexOf('.');
  const version = dot < 0 ? name : name.slice(0, dot);
  const group = dot < 0 ? '' : name.slice(dot + 1);
  const messages: string[] = [];
  if (dot < 0) messages.push('must be in the form: <version>.<group>');
  else if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(version) || (group !== '' && !DNS1123_SUBDOMAIN.test(group))) {
    messages.push('must be in the form: <version>.<group>, the version a DNS-1035 label and the group a DNS subdomain');
  }
  if (messages.length)
    throw errors.invalid(
      t,
      name,
      messages.map((m) => ({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": ${m}`,
        field: 'metadata.name',
      })),
    );
}
