import { goJson, goQuote } from '../schema/gofmt.js';
import { SelectorError } from './errors.js';
import { labelValueErrors, qualifiedNameErrors } from './label-validation.js';

/** selection.Operator spellings, as apimachinery's labels package uses them. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

/** Requirements ANDed together. `nothing` is labels.Nothing(): what a nil metav1.LabelSelector selects. */
export interface LabelSelector {
  requirements: LabelRequirement[];
  nothing?: boolean;
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

/** Go's rendering of a []string bad value: JSON, `null` for a nil slice. */
const renderValues = (vals: string[] | undefined): string => goJson(vals ?? null);
export const quote = goQuote;

/** Validates like labels.NewRequirement and returns the aggregated error text, or undefined when valid. */
function requirementError(key: string, op: LabelOperator, vals: string[] | undefined): string | undefined {
  const errs: string[] = [];
  const values = vals ?? [];
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) errs.push(`key: Invalid value: ${quote(key)}: ${keyErrs.join('; ')}`);
  switch (op) {
    case 'in':
    case 'notin':
      if (!values.length)
        errs.push(
          `values: Invalid value: ${renderValues(vals)}: for 'in', 'notin' operators, values set can't be empty`,
        );
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        errs.push(`values: Invalid value: ${renderValues(vals)}: exact-match compatibility requires one single value`);
      break;
    case 'exists':
    case '!':
      if (values.length)
        errs.push(
          `values: Invalid value: ${renderValues(vals)}: values set must be empty for exists and does not exist`,
        );
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        errs.push(
          `values: Invalid value: ${renderValues(vals)}: for 'Gt', 'Lt' operators, exactly one value is required`,
        );
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined)
          errs.push(`values[${i}]: Invalid value: ${quote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
      });
      break;
  }
  values.forEach((v, i) => {
    const valErrs = labelValueErrors(v);
    if (valErrs.length) errs.push(`values[${i}][${key}]: Invalid value: ${quote(v)}: ${valErrs.join('; ')}`);
  });
  const unique = [...new Set(errs)];
  if (!unique.length) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

export function newRequirement(key: string, operator: LabelOperator, values: string[] | undefined): LabelRequirement {
  const err = requirementError(key, operator, values);
  if (err) throw new SelectorError(err);
  return { key, operator, values: values ?? [] };
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, int64 range. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

export function byKey(reqs: LabelRequirement[]): LabelRequirement[] {
  return [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
