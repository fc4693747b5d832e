// Part of kube-apiserver's ValidatePodSpec (kubernetes/kubernetes pkg/apis/core/validation/validation.go:
// ValidatePodSpec, validateContainers, validateContainerCommon, validateContainerPorts, validateProbe,
// validateRestartPolicy, validateDNSPolicy), on the defaulted spec, with upstream's paths and texts:
// containers (required, DNS-1123 names, duplicates, image, pull and termination-message policies,
// ports, env and envFrom (container-env.ts), resources (container-resources.ts), probes), restartPolicy, dnsPolicy, nodeSelector, the names it holds (service account, node,
// hostname, subdomain, priority and runtime classes), a template's preemptionPolicy, os.name, activeDeadlineSeconds.
// Other PodSpec fields are stored unchecked.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { subdomainErrors } from './checks.js';
import { dns1123LabelErrors, isValidPort, PORT_RANGE, portNameErrors } from './dns.js';
import { envCauses, envFromCauses } from './container-env.js';
import { containerResourcesCauses } from './container-resources.js';
import { labelMapCauses } from './label-selector.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const MAX_INT32 = 2 ** 31 - 1;

const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

function enumCause(path: string, v: JsonValue | undefined, valid: string[]): FieldCause[] {
  const s = str(v);
  if (s === '') return [required(path)];
  return valid.includes(s) ? [] : [notSupported(path, s, valid)];
}

function portCauses(ports: JsonValue | undefined, path: string): FieldCause[] {
  if (!Array.isArray(ports)) return [];
  const causes: FieldCause[] = [];
  ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const at = `${path}[${i}]`;
    const name = str(p.name);
    if (name) for (const m of portNameErrors(name)) causes.push(invalid(`${at}.name`, name, m));
    const cp = p.containerPort ?? 0;
    if (cp === 0) causes.push(required(`${at}.containerPort`));
    else if (!isValidPort(cp)) causes.push(invalid(`${at}.containerPort`, cp, PORT_RANGE));
    const hp = p.hostPort ?? 0;
    if (hp !== 0 && !isValidPort(hp)) causes.push(invalid(`${at}.hostPort`, hp, PORT_RANGE));
    causes.push(...enumCause(`${at}.protocol`, p.protocol, PROTOCOLS));
  });
  return causes;
}

function probeCauses(c: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const probe of PROBES) {
    const p = c[probe];
    if (!isObject(p)) continue;
    if (!HANDLERS.some((h) => p[h] != null)) causes.push(required(`${path}.${probe}`, 'must specify a handler type'));
  }
  return causes;
}

function containerCauses(containers: JsonValue | undefined, path: string): FieldCause[] {
  if (!Array.isArray(containers) || containers.length === 0) return [required(path)];
  const causes: FieldCause[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    if (!isObject(c)) return;
    const at = `${path}[${i}]`;
    const name = str(c.name);
    if (name === '') causes.push(required(`${at}.name`));
    else for (const m of dns1123LabelErrors(name)) causes.push(invalid(`${at}.name`, name, m));
    if (str(c.image) === '') causes.push(required(`${at}.image`));
    causes.push(...portCauses(c.ports, `${at}.ports`));
    causes.push(...envCauses(c.env, `${at}.env`), ...envFromCauses(c.envFrom, `${at}.envFrom`));
    causes.push(...containerResourcesCauses(c.resources, `${at}.resources`));
    causes.push(...probeCauses(c, at));
    if (c.imagePullPolicy !== undefined)
      causes.push(...enumCause(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
    if (c.terminationMessagePolicy !== undefined) {
      causes.push(...enumCause(`${at}.terminationMessagePolicy`, c.terminationMessagePolicy, MESSAGE_POLICIES));
    }
    if (name !== '' && names.has(name)) causes.push(duplicate(`${at}.name`, name));
    names.add(name);
  });
  return causes;
}

/**
 * ValidatePodSpec's part named above; `path` is where the spec sits (`spec`, `spec.template.spec`).
 * A template's preemptionPolicy is checked here; a Pod's is refused first by the Priority admission
 * plugin, which this server does not run.
 */
export function podSpecCauses(spec: JsonObject, path: string): FieldCause[] {
  const causes = containerCauses(spec.containers, `${path}.containers`);
  if (spec.restartPolicy !== undefined)
    causes.push(...enumCause(`${path}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES));
  if (spec.dnsPolicy !== undefined) causes.push(...enumCause(`${path}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES));
  causes.push(...labelMapCauses(spec.nodeSelector, `${path}.nodeSelector`));
  const named = (field: string, check: (v: string) => string[]): void => {
    const v = str(spec[field]);
    if (v) for (const m of check(v)) causes.push(invalid(`${path}.${field}`, v, m));
  };
  named('serviceAccountName', subdomainErrors);
  named('nodeName', subdomainErrors);
  const ads = spec.activeDeadlineSeconds;
  if (typeof ads === 'number' && (ads < 1 || ads > MAX_INT32)) {
    causes.push(invalid(`${path}.activeDeadlineSeconds`, ads, `must be between 1 and ${MAX_INT32}, inclusive`));
  }
  named('hostname', dns1123LabelErrors);
  named('subdomain', dns1123LabelErrors);
  named('priorityClassName', subdomainErrors);
  // ValidateRuntimeClassName checks a set name even when it is empty.
  if (typeof spec.runtimeClassName === 'string')
    for (const m of subdomainErrors(spec.runtimeClassName))
      causes.push(invalid(`${path}.runtimeClassName`, spec.runtimeClassName, m));
  if (path !== 'spec' && spec.preemptionPolicy !== undefined) {
    causes.push(...enumCause(`${path}.preemptionPolicy`, spec.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
  const os = spec.os;
  if (isObject(os)) causes.push(...enumCause(`${path}.os.name`, os.name, ['linux', 'windows']));
  return causes;
}

export const objectAt = (obj: JsonObject, key: string): JsonObject => {
  const v = obj[key];
  return isObject(v) ? v : {};
};
