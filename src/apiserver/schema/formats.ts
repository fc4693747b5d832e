import { isIPv4, isIPv6 } from 'node:net';

/**
 * String formats kube-apiserver checks for CRDs. It strips every other format before validating
 * (StripUnsupportedFormatsPostProcessor), so int32, int64, float and double are never enforced.
 * Names are compared without dashes, as go-openapi's registry normalises them.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID_V = (v: string): RegExp =>
  new RegExp(`^[0-9a-f]{8}-?[0-9a-f]{4}-?${v}[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`, 'i');
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DURATION_UNIT =
  '(?:ns|us|µs|μs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?)';
const DURATION = new RegExp(`^(?:[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)\\s*${DURATION_UNIT}\\s*)+$`);
const MAC =
  /^(?:[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){7}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){19}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){2}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){3}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){9})$/i;
const EMAIL = /^(?:[^<>@\s]+@[^<>@\s]+\.?[^<>@\s]*|[^<>]*<[^<>@\s]+@[^<>@\s]+>)$/;
const RGB =
  /^rgb\(\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*\)$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[tT](\d{2}):(\d{2}):(\d{2})(\.\d+)?([zZ]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m || !isDate(m[1]!)) return false;
  const [h, min, sec] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || min > 59 || sec > 60) return false;
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
}

function isCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const max = isIPv4(ip) ? 32 : isIPv6(ip) ? 128 : -1;
  return max >= 0 && Number(bits) <= max;
}

function isUri(s: string): boolean {
  if (s.startsWith('/')) return !/\s/.test(s);
  try {
    new URL(s);
    return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
  } catch {
    return false;
  }
}

const CHECKS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-f]{24}$/i.test(s),
  uri: isUri,
  email: (s) => EMAIL.test(s.trim()),
  hostname: (s) => s.length <= 255 && HOSTNAME.test(s),
  ipv4: (s) => isIPv4(s),
  ipv6: (s) => isIPv6(s),
  cidr: isCidr,
  mac: (s) => MAC.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID_V('3').test(s),
  uuid4: (s) => UUID_V('4').test(s),
  uuid5: (s) => UUID_V('5').test(s),
  isbn: () => true,
  isbn10: () => true,
  isbn13: () => true,
  creditcard: () => true,
  ssn: (s) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => RGB.test(s),
  byte: (s) => BASE64.test(s.replace(/[\r\n]/g, '')),
  password: () => true,
  date: isDate,
  duration: (s) => DURATION.test(s.trim()),
  datetime: isDateTime,
  k8sshortname: (s) => s.length <= 63 && DNS1123_LABEL.test(s),
  k8slongname: (s) => s.length <= 253 && DNS1123_SUBDOMAIN.test(s),
};

/** The check for a format, or undefined when kube-apiserver would strip the format and ignore it. */
export function formatCheck(format: string | undefined): ((s: string) => boolean) | undefined {
  if (!format) return undefined;
  const name = format.replace(/-/g, '');
  return Object.hasOwn(CHECKS, name) ? CHECKS[name] : undefined;
}
