// kube-aggregator's ValidateAPIService (k8s.io/kube-aggregator pkg/apis/apiregistration/validation/validation.go):
// the name is `spec.version.spec.group`, the group a DNS subdomain (empty only for v1), the version a DNS-1035
// label, both priorities in range, and a service reference with its namespace, name and port (443 by default).
import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';
import { invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { str, subdomainErrors } from './checks.js';
import { dns1035LabelErrors, isValidPort, PORT_RANGE } from './dns.js';
import { objectAt } from './pod-spec.js';

export function apiServiceCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const group = str(spec.group);
  const version = str(spec.version);
  const name = isObject(obj.metadata) ? str(obj.metadata.name) : '';
  const want = `${version}.${group}`;
  const causes: FieldCause[] = [];
  if (name && name !== want)
    causes.push(invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: "${want}"`));
  if (!group && version !== 'v1')
    causes.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) causes.push(...subdomainErrors(group).map((m) => invalid('spec.group', group, m)));
  causes.push(...dns1035LabelErrors(version).map((m) => invalid('spec.version', version, m)));
  const gpm = typeof spec.groupPriorityMinimum === 'number' ? spec.groupPriorityMinimum : 0;
  if (gpm <= 0 || gpm > 20000)
    causes.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
  const vp = typeof spec.versionPriority === 'number' ? spec.versionPriority : 0;
  if (vp <= 0 || vp > 1000) causes.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  if (!isObject(spec.service)) return causes;
  const svc = spec.service;
  if (!str(svc.namespace)) causes.push(required('spec.service.namespace'));
  if (!str(svc.name)) causes.push(required('spec.service.name'));
  const port = svc.port ?? 443;
  if (!isValidPort(port)) causes.push(invalid('spec.service.port', port, `port is not valid: ${PORT_RANGE}`));
  return causes;
}
