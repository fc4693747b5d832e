// kube-apiserver's ValidateNodeSelector, ValidateNodeSelectorTerm, ValidateNodeSelectorRequirement and
// ValidateNodeFieldSelectorRequirement (kubernetes/kubernetes pkg/apis/core/validation/validation.go), with
// invalid label values refused (allowInvalidLabelValueInRequiredNodeAffinity false).
import type { JsonValue } from '../registry/types.js';
import { labelValueErrors, qualifiedNameErrors } from '../selectors/label-validation.js';
import { forbidden, invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { maps, strings } from './admission-rules.js';
import { str, subdomainErrors } from './checks.js';
import { objectAt } from './pod-spec.js';

function requirementCauses(rq: Record<string, JsonValue>, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const values = strings(rq.values);
  const op = str(rq.operator);
  if (op === 'In' || op === 'NotIn') {
    if (!values.length) causes.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length) {
      causes.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
  } else if (op === 'Gt' || op === 'Lt') {
    if (values.length !== 1) {
      causes.push(required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    }
  } else causes.push(invalid(`${path}.operator`, op, 'not a valid selector operator'));
  const key = str(rq.key);
  for (const m of qualifiedNameErrors(key)) causes.push(invalid(`${path}.key`, key, m));
  values.forEach((v, i) => {
    for (const m of labelValueErrors(str(v))) causes.push(invalid(`${path}.values[${i}]`, str(v), m));
  });
  return causes;
}

function fieldRequirementCauses(rq: Record<string, JsonValue>, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const values = strings(rq.values);
  const op = str(rq.operator);
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) {
      const detail = "must be only one value when `operator` is 'In' or 'NotIn' for node field selector";
      causes.push(required(`${path}.values`, detail));
    }
  } else causes.push(invalid(`${path}.operator`, op, 'not a valid selector operator'));
  if (str(rq.key) !== 'metadata.name') {
    causes.push(invalid(`${path}.key`, str(rq.key), 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => {
      for (const m of subdomainErrors(str(v))) causes.push(invalid(`${path}.values[${i}]`, str(v), m));
    });
  }
  return causes;
}

export function nodeSelectorTermCauses(term: Record<string, JsonValue>, path: string): FieldCause[] {
  return [
    ...maps(term.matchExpressions).flatMap((r, j) => requirementCauses(r, `${path}.matchExpressions[${j}]`)),
    ...maps(term.matchFields).flatMap((r, j) => fieldRequirementCauses(r, `${path}.matchFields[${j}]`)),
  ];
}

export function nodeSelectorCauses(sel: JsonValue | undefined, path: string): FieldCause[] {
  const terms = maps(objectAt({ s: sel ?? {} }, 's').nodeSelectorTerms);
  const termsPath = `${path}.nodeSelectorTerms`;
  if (!terms.length) return [required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => nodeSelectorTermCauses(t, `${termsPath}[${i}]`));
}
