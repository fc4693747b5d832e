// Resource names and quantities as kube-apiserver v1.34 checks them (pkg/apis/core/validation:
// validateResourceName, validateContainerResourceName, ValidateResourceQuantityValue; the sets of
// pkg/apis/core/helper/helpers.go), shared by the LimitRange and the containers' resources.
import type { JsonValue } from '../registry/types.js';
import { parseQuantity, quantityString, type Quantity } from '../defaults/quantity-string.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { invalid } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';

const HUGE_PAGES = 'hugepages-';
const REQUESTS_HUGE_PAGES = 'requests.hugepages-';
const REQUESTS = 'requests.';
const NATIVE_PREFIX = 'kubernetes.io/';

/** helper.standardContainerResources. */
const STANDARD_CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** helper.integerResources: the object counts. */
const INTEGER = new Set([
  'pods',
  'quotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);
/** helper.standardQuotaResources: the container resources, their requests. and limits. forms, the counts, requests.storage. */
const STANDARD_QUOTA = new Set([
  ...[...STANDARD_CONTAINER].flatMap((r) => [r, `requests.${r}`, `limits.${r}`]),
  ...INTEGER,
  'requests.storage',
]);
/** helper.standardResources: the quota resources and storage. */
const STANDARD = new Set([...STANDARD_QUOTA, 'storage']);

export const isHugePages = (name: string): boolean => name.startsWith(HUGE_PAGES);
const isQuotaHugePages = (name: string): boolean => name.startsWith(HUGE_PAGES) || name.startsWith(REQUESTS_HUGE_PAGES);
/** Unprefixed names are implicitly in the kubernetes.io/ namespace. */
export const isNative = (name: string): boolean => !name.includes('/') || name.includes(NATIVE_PREFIX);

export function isExtended(name: string): boolean {
  if (isNative(name) || name.startsWith(REQUESTS)) return false;
  return qualifiedNameErrors(`${REQUESTS}${name}`).length === 0;
}

/** In the default namespace and not huge pages: a request may be below its limit. */
export const isOvercommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

export function resourceNameCauses(name: string, path: string): FieldCause[] {
  const errs = qualifiedNameErrors(name);
  if (errs.length) return errs.map((m) => invalid(path, name, m));
  if (!name.includes('/') && !STANDARD.has(name) && !isQuotaHugePages(name))
    return [invalid(path, name, 'must be a standard resource type or fully qualified')];
  return [];
}

/** ValidateResourceQuotaResourceName. */
export function quotaResourceNameCauses(name: string, path: string): FieldCause[] {
  const causes = resourceNameCauses(name, path);
  if (!name.includes('/') && !isStandardQuotaResource(name))
    causes.push(invalid(path, name, 'must be a standard resource for quota'));
  return causes;
}

export const isStandardQuotaResource = (name: string): boolean => STANDARD_QUOTA.has(name) || isQuotaHugePages(name);

export function containerResourceNameCauses(name: string, path: string): FieldCause[] {
  const causes = resourceNameCauses(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER.has(name) && !isHugePages(name))
      causes.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    causes.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return causes;
}

/** A quantity field's value as Go decodes it (a JSON number is a quantity too); undefined if it is none. */
export function quantityOf(v: JsonValue | undefined): Quantity | undefined {
  if (typeof v === 'number') return parseQuantity(String(v));
  return typeof v === 'string' ? parseQuantity(v) : undefined;
}

/** resource.Quantity's Cmp. */
export const compareQuantities = (a: Quantity, b: Quantity): number =>
  a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;

/** ValidateResourceQuantityValue: never negative, whole for the integer resources. */
export function quantityValueCauses(name: string, q: Quantity, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  // Both show the canonical text: String() in the one, the Quantity's JSON in the other.
  if (q.nanos < 0n) causes.push(invalid(path, quantityString(q), 'must be greater than or equal to 0'));
  if ((INTEGER.has(name) || isExtended(name)) && q.nanos % 1_000_000_000n !== 0n)
    causes.push(invalid(path, quantityString(q), 'must be an integer'));
  return causes;
}
