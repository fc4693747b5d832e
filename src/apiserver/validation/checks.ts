// The small checks every per-kind validation file repeats, each as upstream's helper words it:
// apimachinery's IsDNS1123Subdomain, IsValidPathSegmentName, IsDomainPrefixedPath, IsValidIP and
// IsValidCIDR (k8s.io/apimachinery/pkg/util/validation, pkg/api/validation/path), and
// ValidateImmutableField (pkg/apis/core/validation/validation.go).
import { isIP } from 'node:net';
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { DNS1123_SUBDOMAIN } from './dns.js';
import { semanticEqual } from './semantic-equal.js';

export const IMMUTABLE = 'field is immutable';
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " +
  "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

export const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
export const num = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
export const objectOrUndefined = (v: JsonValue | undefined): JsonObject | undefined => (isObject(v) ? v : undefined);

export function subdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) errs.push(SUBDOMAIN_MSG);
  return errs;
}

export function pathSegmentErrors(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const c of ['/', '%']) if (value.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

/** A required string: Required when empty, else each of `check`'s messages as an Invalid. */
export function requiredString(
  obj: JsonObject,
  key: string,
  path: string,
  check: (v: string) => string[] = () => [],
): FieldCause[] {
  const v = str(obj[key]);
  if (v === '') return [required(path)];
  return check(v).map((m) => invalid(path, v, m));
}

/** An optional string checked only when set. */
export function optionalString(
  obj: JsonObject,
  key: string,
  path: string,
  check: (v: string) => string[],
): FieldCause[] {
  const v = str(obj[key]);
  return v === '' ? [] : check(v).map((m) => invalid(path, v, m));
}

/** An enum: NotSupported outside `valid`; an unset value is `required` when asked. */
export function enumCauses(v: JsonValue | undefined, path: string, valid: string[], req = false): FieldCause[] {
  if (v === undefined || v === null || v === '') return req ? [notSupported(path, '', valid)] : [];
  return typeof v === 'string' && valid.includes(v) ? [] : [notSupported(path, v, valid)];
}

/** IsDomainPrefixedPath: `example.com/path`. */
export function domainPrefixedPathCauses(v: string, path: string): FieldCause[] {
  if (v === '') return [required(path)];
  const slash = v.indexOf('/');
  if (slash < 0) return [invalid(path, v, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = v.slice(0, slash);
  const rest = v.slice(slash);
  const causes = subdomainErrors(host).map((m) => invalid(path, host, m));
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest))
    causes.push(invalid(path, rest, "Invalid path: must be a valid path (e.g. '/api/v1/')"));
  return causes;
}

export function ipErrors(v: string): string[] {
  return isIP(v) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

export function cidrErrors(v: string): string[] {
  const slash = v.indexOf('/');
  const ip = slash < 0 ? '' : v.slice(0, slash);
  const bits = slash < 0 ? NaN : Number(v.slice(slash + 1));
  const max = isIP(ip) === 6 ? 128 : 32;
  if (!isIP(ip) || !/^\d+$/.test(v.slice(slash + 1)) || bits > max)
    return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
  return [];
}

/** ValidateImmutableField: Invalid `field is immutable` when the value moved. */
export function immutable(now: JsonValue | undefined, before: JsonValue | undefined, path: string): FieldCause[] {
  return semanticEqual(now, before) ? [] : [invalid(path, now ?? null, IMMUTABLE)];
}

/** Each of `fields` of `obj` that is a negative number. */
export function nonNegative(obj: JsonObject, fields: string[], path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const f of fields) {
    const v = obj[f];
    if (typeof v === 'number' && v < 0) causes.push(invalid(`${path}.${f}`, v, 'must be greater than or equal to 0'));
  }
  return causes;
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/** IsConfigMapKey, which Secret keys share. */
export function configKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) {
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}
