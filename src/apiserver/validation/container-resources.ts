// kube-apiserver v1.34's ValidateContainerResourceRequirements (pkg/apis/core/validation:
// validateResourceRequirements): each limit's and request's name and value, a request at most its
// limit (equal to it where overcommit is not allowed, and then a limit is required), and huge
// pages only beside cpu or memory. Not checked here: a huge-page value's divisibility by its page
// size, and the claims' names against the pod's resourceClaims.
import { quantityString } from '../defaults/quantity-string.js';
import { isObject } from '../objects/meta.js';
import type { JsonValue } from '../registry/types.js';
import { forbidden, invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import {
  compareQuantities,
  containerResourceNameCauses,
  isHugePages,
  isOvercommitAllowed,
  quantityOf,
  quantityValueCauses,
} from './resource-names.js';

const QOS = new Set(['cpu', 'memory']);

export function containerResourcesCauses(resources: JsonValue | undefined, path: string): FieldCause[] {
  if (!isObject(resources)) return [];
  const causes: FieldCause[] = [];
  const limits = isObject(resources.limits) ? resources.limits : {};
  const requests = isObject(resources.requests) ? resources.requests : {};
  let qos = false;
  let hugePages = false;
  for (const [name, v] of Object.entries(limits)) {
    const at = `${path}.limits[${name}]`;
    causes.push(...containerResourceNameCauses(name, at));
    const q = quantityOf(v);
    if (q) causes.push(...quantityValueCauses(name, q, at));
    if (isHugePages(name)) hugePages = true;
    if (QOS.has(name)) qos = true;
  }
  for (const [name, v] of Object.entries(requests)) {
    const at = `${path}.requests[${name}]`;
    causes.push(...containerResourceNameCauses(name, at));
    const q = quantityOf(v);
    if (q) causes.push(...quantityValueCauses(name, q, at));
    const limit = quantityOf(limits[name]);
    if (q && limit) {
      const s = quantityString(q);
      if (compareQuantities(q, limit) !== 0 && !isOvercommitAllowed(name))
        causes.push(invalid(`${path}.requests`, s, `must be equal to ${name} limit of ${quantityString(limit)}`));
      else if (compareQuantities(q, limit) > 0)
        causes.push(
          invalid(`${path}.requests`, s, `must be less than or equal to ${name} limit of ${quantityString(limit)}`),
        );
    } else if (limits[name] === undefined && !isOvercommitAllowed(name)) {
      causes.push(required(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (QOS.has(name)) qos = true;
  }
  if (hugePages && !qos) causes.push(forbidden(path, 'HugePages require cpu or memory'));
  return causes;
}
