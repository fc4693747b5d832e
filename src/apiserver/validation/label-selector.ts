import { isObject } from '../objects/meta.js';
import type { JsonValue } from '../registry/types.js';
import { forbidden, invalid, required } from '../schema/field-errors.js';
import { goJson } from '../schema/gofmt.js';
import type { FieldCause } from '../schema/types.js';
import {
  labelSelectorFromMatch,
  SelectorError,
  type LabelSelector,
  type LabelSelectorObject,
} from '../selectors/index.js';
import { labelValueErrors, qualifiedNameErrors } from '../selectors/label-validation.js';

/** ValidateLabels (apimachinery's metav1 validation): each key a qualified name, each value a label value. */
export function labelMapCauses(labels: JsonValue | undefined, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  if (!isObject(labels)) return causes;
  for (const [k, v] of Object.entries(labels)) {
    for (const m of qualifiedNameErrors(k)) causes.push(invalid(path, k, m));
    if (typeof v === 'string') for (const m of labelValueErrors(v)) causes.push(invalid(path, v, m));
  }
  return causes;
}

/**
 * ValidateLabelSelector with kube's texts and field paths, values checked strictly (what a create
 * is held to: AllowInvalidLabelValueInSelector is only for objects stored before the check).
 */
export function labelSelectorCauses(sel: JsonValue | undefined, path: string): FieldCause[] {
  if (!isObject(sel)) return [];
  const causes = labelMapCauses(sel.matchLabels, `${path}.matchLabels`);
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  exprs.forEach((e, i) => {
    if (!isObject(e)) return;
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(e.values) ? e.values : [];
    const operator = e.operator ?? '';
    if (operator === 'In' || operator === 'NotIn') {
      if (!values.length) causes.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length)
        causes.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      causes.push(invalid(`${at}.operator`, operator, 'not a valid selector operator'));
    }
    const key = typeof e.key === 'string' ? e.key : '';
    for (const m of qualifiedNameErrors(key)) causes.push(invalid(`${at}.key`, key, m));
    values.forEach((v, j) => {
      if (typeof v === 'string') for (const m of labelValueErrors(v)) causes.push(invalid(`${at}.values[${j}]`, v, m));
    });
  });
  return causes;
}

/** metav1.LabelSelectorAsSelector: undefined when it fails (an operator it does not know, a bad key or value). */
export function selectorOf(sel: JsonValue | undefined): LabelSelector | undefined {
  try {
    return labelSelectorFromMatch(isObject(sel) ? (sel as LabelSelectorObject) : undefined);
  } catch (e) {
    if (e instanceof SelectorError) return undefined;
    throw e;
  }
}

/** A selector with neither matchLabels nor matchExpressions (which selects everything). */
export function isEmptySelector(sel: JsonValue | undefined): boolean {
  if (!isObject(sel)) return false;
  const labels = isObject(sel.matchLabels) ? Object.keys(sel.matchLabels).length : 0;
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0;
  return labels + exprs === 0;
}

/**
 * A LabelSelector as field.Invalid renders it since 1.34: encoding/json of the Go struct, so its
 * fields in declaration order (matchLabels, matchExpressions; key, operator, values) and empty
 * ones left out, whatever order the client wrote them in.
 */
export function selectorJson(sel: JsonValue | undefined): string {
  if (!isObject(sel)) return 'null';
  const parts: string[] = [];
  if (isObject(sel.matchLabels) && Object.keys(sel.matchLabels).length)
    parts.push(`"matchLabels":${goJson(sel.matchLabels)}`);
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  if (exprs.length) {
    const rendered = exprs.map((e) => {
      const r = isObject(e) ? e : {};
      const values = Array.isArray(r.values) && r.values.length ? `,"values":${goJson(r.values)}` : '';
      return `{"key":${goJson(r.key ?? '')},"operator":${goJson(r.operator ?? '')}${values}}`;
    });
    parts.push(`"matchExpressions":[${rendered.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/** field.Invalid with a LabelSelector as the bad value (an empty detail leaves the value last). */
export function invalidSelector(path: string, sel: JsonValue | undefined, detail: string): FieldCause {
  const body = `Invalid value: ${selectorJson(sel)}`;
  return { reason: 'FieldValueInvalid', field: path, message: detail ? `${body}: ${detail}` : body };
}
