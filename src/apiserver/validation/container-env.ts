// kube-apiserver v1.34's ValidateEnv and ValidateEnvFrom (pkg/apis/core/validation), with the
// options a new object gets in v1.34: relaxed variable names (RelaxedEnvironmentVariableValidation
// is on) and no fileKeyRef (EnvFiles is off; the field is dropped before this runs). A valueFrom
// names exactly one source; key selectors name a valid key; a fieldRef is a v1 downward-API path;
// a resourceFieldRef a container resource with a divisor its resource takes.
import { canonicalQuantity } from '../defaults/quantity-string.js';
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { configKeyErrors, subdomainErrors } from './checks.js';

const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

const RELAXED_NAME = "a valid environment variable name must consist only of printable ASCII characters other than '='";

function envNameErrors(name: string): string[] {
  for (const ch of name) {
    const c = ch.codePointAt(0) ?? 0;
    if (c > 0x7e || c < 0x20 || ch === '=') return [RELAXED_NAME];
  }
  return [];
}

const DOWNWARD_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
/** What ConvertDownwardAPIFieldLabel takes for v1 (a label it knows but ValidateEnv does not is NotSupported). */
const CONVERTIBLE = new Set([
  ...DOWNWARD_FIELDS,
  'metadata.annotations',
  'metadata.labels',
  'spec.restartPolicy',
  'spec.schedulerName',
  'status.phase',
]);
const RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const HUGE_PAGE_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISORS_TEXT = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

/** fieldpath.SplitMaybeSubscriptedPath: `path['key']`. */
function splitSubscript(p: string): [string, string] | undefined {
  if (!p.endsWith("']")) return undefined;
  const open = p.indexOf("['");
  if (open < 0) return undefined;
  return [p.slice(0, open), p.slice(open + 2, -2)];
}

function fieldRefCauses(ref: JsonObject, path: string): FieldCause[] {
  const apiVersion = str(ref.apiVersion);
  if (!apiVersion) return [required(`${path}.apiVersion`)];
  let fieldPath = str(ref.fieldPath);
  if (!fieldPath) return [required(`${path}.fieldPath`)];
  const sub = splitSubscript(fieldPath);
  let error: string | undefined;
  if (apiVersion !== 'v1') error = `unsupported pod version: ${apiVersion}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels')
    error = `field label does not support subscript: ${fieldPath}`;
  else if (!sub && fieldPath === 'spec.host') fieldPath = 'spec.nodeName';
  else if (!sub && !CONVERTIBLE.has(fieldPath)) error = `field label not supported: ${fieldPath}`;
  if (error) return [invalid(`${path}.fieldPath`, str(ref.fieldPath), `error converting fieldPath: ${error}`)];
  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return qualifiedNameErrors(key).map((m) => invalid(path, key, m));
  }
  if (!DOWNWARD_FIELDS.includes(fieldPath)) return [notSupported(`${path}.fieldPath`, fieldPath, DOWNWARD_FIELDS)];
  return [];
}

function divisorCauses(resource: string, divisor: JsonValue | undefined, path: string): FieldCause[] {
  if (divisor === undefined || divisor === null) return [];
  const d = canonicalQuantity(typeof divisor === 'number' ? String(divisor) : str(divisor));
  if (d === '0') return [];
  const bad = (what: string): FieldCause =>
    invalid(`${path}.divisor`, resource, `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the ${what}`);
  const causes: FieldCause[] = [];
  if (resource === 'limits.cpu' || resource === 'requests.cpu') {
    if (d !== '1m' && d !== '1')
      causes.push(
        invalid(`${path}.divisor`, resource, "only divisor's values 1m and 1 are supported with the cpu resource"),
      );
  } else if (resource === 'limits.memory' || resource === 'requests.memory') {
    if (!BYTE_DIVISORS.has(d)) causes.push(bad('memory resource'));
  } else if (resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') {
    if (!BYTE_DIVISORS.has(d)) causes.push(bad('local ephemeral storage resource'));
  }
  if (HUGE_PAGE_PREFIXES.some((p) => resource.startsWith(p)) && !BYTE_DIVISORS.has(d))
    causes.push(bad('hugepages resource'));
  return causes;
}

function resourceFieldRefCauses(ref: JsonObject, path: string): FieldCause[] {
  const resource = str(ref.resource);
  const causes: FieldCause[] = [];
  if (!resource) causes.push(required(`${path}.resource`));
  else if (!RESOURCE_FIELDS.includes(resource) && !HUGE_PAGE_PREFIXES.some((p) => resource.startsWith(p)))
    causes.push(notSupported(`${path}.resource`, resource, RESOURCE_FIELDS));
  causes.push(...divisorCauses(resource, ref.divisor, path));
  return causes;
}

function keySelectorCauses(ref: JsonObject, path: string): FieldCause[] {
  const name = str(ref.name);
  const causes: FieldCause[] = name ? subdomainErrors(name).map((m) => invalid(`${path}.name`, name, m)) : [];
  const key = str(ref.key);
  if (!key) causes.push(required(`${path}.key`));
  else for (const m of configKeyErrors(key)) causes.push(invalid(`${path}.key`, key, m));
  return causes;
}

function valueFromCauses(ev: JsonObject, path: string): FieldCause[] {
  const from = ev.valueFrom;
  if (!isObject(from)) return [];
  const causes: FieldCause[] = [];
  let sources = 0;
  const source = (field: string, check: (ref: JsonObject, at: string) => FieldCause[]): void => {
    const ref = from[field];
    if (!isObject(ref)) return;
    sources++;
    causes.push(...check(ref, `${path}.${field}`));
  };
  source('fieldRef', fieldRefCauses);
  source('resourceFieldRef', resourceFieldRefCauses);
  source('configMapKeyRef', keySelectorCauses);
  source('secretKeyRef', keySelectorCauses);
  if (sources === 0)
    causes.push(
      invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'),
    );
  else if (str(ev.value) !== '') causes.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) causes.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return causes;
}

export function envCauses(env: JsonValue | undefined, path: string): FieldCause[] {
  if (!Array.isArray(env)) return [];
  const causes: FieldCause[] = [];
  env.forEach((ev, i) => {
    if (!isObject(ev)) return;
    const at = `${path}[${i}]`;
    const name = str(ev.name);
    if (!name) causes.push(required(`${at}.name`));
    else for (const m of envNameErrors(name)) causes.push(invalid(`${at}.name`, name, m));
    causes.push(...valueFromCauses(ev, `${at}.valueFrom`));
  });
  return causes;
}

export function envFromCauses(envFrom: JsonValue | undefined, path: string): FieldCause[] {
  if (!Array.isArray(envFrom)) return [];
  const causes: FieldCause[] = [];
  envFrom.forEach((ev, i) => {
    if (!isObject(ev)) return;
    const at = `${path}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix) for (const m of envNameErrors(prefix)) causes.push(invalid(`${at}.prefix`, prefix, m));
    let sources = 0;
    for (const field of ['configMapRef', 'secretRef']) {
      const ref = ev[field];
      if (!isObject(ref)) continue;
      sources++;
      const name = str(ref.name);
      if (!name) causes.push(required(`${at}.${field}.name`));
      else for (const m of subdomainErrors(name)) causes.push(invalid(`${at}.${field}.name`, name, m));
    }
    if (sources === 0) causes.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) causes.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return causes;
}
