import { validateAgainstSchema } from './openapi-validate.js';
import { structuralErrors } from './structural-checks.js';
import type { FieldCause, JsonSchemaProps, JsonValue } from './types.js';

export interface ValidateOptions {
  /**
   * Whether the CRD version has a status subresource. Accepted for the caller's convenience but it
   * does not change the result: kube-apiserver validates the whole object either way, having already
   * dropped (create) or restored (update) status in the strategy before validation runs.
   */
  statusSubresource?: boolean;
}

/**
 * The causes of a 422 for a custom resource, in kube-apiserver's order: OpenAPI schema errors, then
 * embedded-resource apiVersion/kind, then x-kubernetes-list-type set/map duplicates. Run it after
 * pruning and defaulting, as the apiserver does; an empty list means the object is valid.
 */
export function validateObject(obj: unknown, schema: JsonSchemaProps, _opts: ValidateOptions = {}): FieldCause[] {
  const data = (obj === undefined ? null : obj) as JsonValue;
  return [...validateAgainstSchema(data, schema), ...structuralErrors(data, schema)];
}
