// kube-apiserver v1.34's ValidateLimitRange (pkg/apis/core/validation/validation.go), on the
// defaulted object (SetDefaults_LimitRangeItem has filled a Container item's default and
// defaultRequest): each item's type once and standard or qualified, its resource names, a Pod
// item without defaults, a PersistentVolumeClaim item with a storage bound, and per resource
// min ≤ defaultRequest ≤ default ≤ max and a limit/request ratio within 1…max/min. Quantities
// are shown canonical, as Quantity's String() and its JSON show them.
import { quantityString, type Quantity } from '../defaults/quantity-string.js';
import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';
import { duplicate, forbidden, invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import {
  compareQuantities,
  containerResourceNameCauses,
  isOvercommitAllowed,
  quantityOf,
  resourceNameCauses,
} from './resource-names.js';

const STANDARD_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
const NANO = 1_000_000_000n;
/** resource.MaxMilliValue: below it Go compares ratios in milli units, above in whole ones. */
const MAX_MILLI = 9_223_372_036_854_775n;

const ceilDiv = (n: bigint, d: bigint): bigint => (n >= 0n ? (n + d - 1n) / d : n / d);

function typeCauses(type: string, path: string): FieldCause[] {
  const errs = qualifiedNameErrors(type);
  if (errs.length) return errs.map((m) => invalid(path, type, m));
  if (!type.includes('/') && !STANDARD_TYPES.has(type))
    return [invalid(path, type, 'must be a standard limit type or fully qualified')];
  return [];
}

/** Go's %f: six decimals. */
const goFixed = (n: number): string => (Number.isFinite(n) ? n.toFixed(6) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

function ratioCause(k: string, ratio: Quantity, min: Quantity, max: Quantity, path: string): FieldCause[] {
  let ratioValue = Number(ceilDiv(ratio.nanos, NANO));
  let minValue = ceilDiv(min.nanos, NANO);
  let maxValue = ceilDiv(max.nanos, NANO);
  if (ceilDiv(ratio.nanos, NANO) < MAX_MILLI && minValue < MAX_MILLI && maxValue < MAX_MILLI) {
    ratioValue = Number(ceilDiv(ratio.nanos, 1_000_000n)) / 1000;
    minValue = ceilDiv(min.nanos, 1_000_000n);
    maxValue = ceilDiv(max.nanos, 1_000_000n);
  }
  const limit = Number(maxValue) / Number(minValue);
  if (!(ratioValue > limit)) return [];
  const s = quantityString(ratio);
  return [invalid(`${path}[${k}]`, s, `ratio ${s} is greater than max/min = ${goFixed(limit)}`)];
}

function itemCauses(item: JsonObject, at: string, seen: Set<string>): FieldCause[] {
  const type = typeof item.type === 'string' ? item.type : '';
  const causes = typeCauses(type, `${at}.type`);
  if (seen.has(type)) causes.push(duplicate(`${at}.type`, type));
  seen.add(type);
  const nameCauses = type === 'Pod' || type === 'Container' ? containerResourceNameCauses : resourceNameCauses;
  const lists: Record<string, Map<string, Quantity>> = {};
  const read = (field: string): void => {
    const list = new Map<string, Quantity>();
    lists[field] = list;
    const m = item[field];
    if (!isObject(m)) return;
    for (const [k, v] of Object.entries(m)) {
      causes.push(...nameCauses(k, `${at}.${field}[${k}]`));
      const q = quantityOf(v);
      if (q) list.set(k, q);
    }
  };
  read('max');
  read('min');
  const nonEmpty = (field: string): boolean => isObject(item[field]) && Object.keys(item[field]).length > 0;
  if (type === 'Pod') {
    if (nonEmpty('default')) causes.push(forbidden(`${at}.default`, "may not be specified when `type` is 'Pod'"));
    if (nonEmpty('defaultRequest'))
      causes.push(forbidden(`${at}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    lists.default = new Map();
    lists.defaultRequest = new Map();
  } else {
    read('default');
    read('defaultRequest');
  }
  const min = lists.min ?? new Map<string, Quantity>();
  const max = lists.max ?? new Map<string, Quantity>();
  if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage'))
    causes.push(
      required(`${at}.limits`, 'either minimum or maximum storage value is required, but neither was provided'),
    );
  read('maxLimitRequestRatio');
  const defaults = lists.default ?? new Map<string, Quantity>();
  const requests = lists.defaultRequest ?? new Map<string, Quantity>();
  const ratios = lists.maxLimitRequestRatio ?? new Map<string, Quantity>();
  const keys = new Set([...max.keys(), ...min.keys(), ...defaults.keys(), ...requests.keys(), ...ratios.keys()]);
  const s = quantityString;
  for (const k of keys) {
    const lo = min.get(k);
    const hi = max.get(k);
    const def = defaults.get(k);
    const req = requests.get(k);
    const ratio = ratios.get(k);
    const gt = (a: Quantity | undefined, b: Quantity | undefined): boolean =>
      a !== undefined && b !== undefined && compareQuantities(a, b) > 0;
    if (gt(lo, hi) && lo && hi)
      causes.push(invalid(`${at}.min[${k}]`, s(lo), `min value ${s(lo)} is greater than max value ${s(hi)}`));
    if (gt(lo, req) && lo && req)
      causes.push(
        invalid(
          `${at}.defaultRequest[${k}]`,
          s(req),
          `min value ${s(lo)} is greater than default request value ${s(req)}`,
        ),
      );
    if (gt(req, hi) && req && hi)
      causes.push(
        invalid(
          `${at}.defaultRequest[${k}]`,
          s(req),
          `default request value ${s(req)} is greater than max value ${s(hi)}`,
        ),
      );
    if (gt(req, def) && req && def)
      causes.push(
        invalid(
          `${at}.defaultRequest[${k}]`,
          s(req),
          `default request value ${s(req)} is greater than default limit value ${s(def)}`,
        ),
      );
    if (gt(lo, def) && lo && def)
      causes.push(invalid(`${at}.default[${k}]`, s(lo), `min value ${s(lo)} is greater than default value ${s(def)}`));
    if (gt(def, hi) && def && hi)
      causes.push(invalid(`${at}.default[${k}]`, s(hi), `default value ${s(def)} is greater than max value ${s(hi)}`));
    if (ratio && ratio.nanos < NANO)
      causes.push(invalid(`${at}.maxLimitRequestRatio[${k}]`, s(ratio), `ratio ${s(ratio)} is less than 1`));
    if (ratio && lo && hi) causes.push(...ratioCause(k, ratio, lo, hi, `${at}.maxLimitRequestRatio`));
    if (!isOvercommitAllowed(k) && def && req && compareQuantities(def, req) !== 0)
      causes.push(
        invalid(
          `${at}.defaultRequest[${k}]`,
          s(req),
          `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`,
        ),
      );
  }
  return causes;
}

export function limitRangeCauses(obj: JsonObject): FieldCause[] {
  const spec = obj.spec;
  const limits = isObject(spec) ? spec.limits : undefined;
  if (!Array.isArray(limits)) return [];
  const seen = new Set<string>();
  const causes: FieldCause[] = [];
  limits.forEach((item, i) => {
    if (isObject(item)) causes.push(...itemCauses(item, `spec.limits[${i}]`, seen));
  });
  return causes;
}
