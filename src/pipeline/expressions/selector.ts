// @selector: Kubernetes label-selector matching (spec §4.3). Also used for source filters.

import { asList, fail, type Where } from '../value/coerce.js';
import { goValue } from '../value/gofmt.js';
import { isMap, isNil, show, typeName, type Doc } from '../../util/json-value.js';
import { evaluate, where, type OpFn } from './core.js';

function has(labels: Doc, key: string): boolean {
  return labels[key] !== undefined;
}

function matchExpression(req: unknown, labels: Doc, at: Where, i: number): boolean {
  if (!isMap(req)) return fail(at, `matchExpressions[${i}] must be a map, got ${typeName(req)}`);
  const { key, operator } = req;
  if (typeof key !== 'string' || key === '') return fail(at, `matchExpressions[${i}].key must be a non-empty string`);
  const values = isNil(req.values) ? [] : asList(req.values, at, `matchExpressions[${i}].values`).map(goValue);
  const value = has(labels, key) ? goValue(labels[key]) : undefined;
  switch (operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0)
        return fail(at, `matchExpressions[${i}]: operator ${operator} needs a non-empty values list`);
      const hit = value !== undefined && values.includes(value);
      return operator === 'In' ? hit : !hit;
    }
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) return fail(at, `matchExpressions[${i}]: operator ${operator} takes no values`);
      return operator === 'Exists' ? value !== undefined : value === undefined;
    default:
      return fail(at, `matchExpressions[${i}]: unknown operator ${show(operator)}`);
  }
}

/**
 * Label-selector match. A map with neither `matchLabels` nor `matchExpressions` is read as a plain
 * label map (the short form); an empty selector matches everything.
 */
export function matchSelector(selector: Doc, labels: Doc, at: Where): boolean {
  const long = 'matchLabels' in selector || 'matchExpressions' in selector;
  const matchLabels = long ? (selector.matchLabels ?? {}) : selector;
  if (!isMap(matchLabels)) return fail(at, `matchLabels must be a map, got ${typeName(matchLabels)}`);
  for (const [k, v] of Object.entries(matchLabels)) {
    if (!has(labels, k) || goValue(labels[k]) !== goValue(v)) return false;
  }
  const exprs =
    long && !isNil(selector.matchExpressions) ? asList(selector.matchExpressions, at, 'matchExpressions') : [];
  return exprs.every((req, i) => matchExpression(req, labels, at, i));
}

export const selectorOps: Record<string, OpFn> = {
  '@selector': (n, ctx) => {
    const l = asList(evaluate(n.arg, ctx), where(n));
    if (l.length !== 2) return fail(where(n), `expected 2 arguments, got ${l.length}`);
    const [selector, labels] = l;
    if (isNil(selector) || isNil(labels)) return false;
    if (!isMap(selector)) return fail(where(n), `invalid label selector: expected a map, got ${typeName(selector)}`);
    if (!isMap(labels)) return fail(where(n), `invalid label set: expected a map, got ${typeName(labels)}`);
    return matchSelector(selector, labels, where(n));
  },
};
