// k8s.io/apimachinery/pkg/util/validation (IsDNS1123Label, IsValidPortName, IsValidPortNum): the
// texts kube-apiserver's field errors carry for names and ports.
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** IsDNS1123Subdomain's pattern. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " +
  "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  // A valid subdomain that is no label has dots: upstream says so instead of the pattern.
  if (!DNS1123_LABEL.test(value))
    errs.push(DNS1123_SUBDOMAIN.test(value) ? 'must not contain dots' : DNS1123_LABEL_MSG);
  return errs;
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic " +
  "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for " +
  "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** IsDNS1035Label: a Service's name (ValidateServiceName), which becomes a DNS name that may not start with a digit. */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value)) errs.push(DNS1035_LABEL_MSG);
  return errs;
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function portNameErrors(port: string): string[] {
  const errs: string[] = [];
  if (port.length < 1 || port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

export const PORT_RANGE = 'must be between 1 and 65535, inclusive';
export const isValidPort = (v: unknown): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;
