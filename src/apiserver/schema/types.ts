export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

/**
 * A CRD version's openAPIV3Schema (apiextensions.k8s.io/v1 JSONSchemaProps). Every field is optional
 * and the object comes from user input, so the code reading it checks shapes at run time as well.
 */
export interface JsonSchemaProps {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  default?: JsonValue;
  example?: JsonValue;
  enum?: JsonValue[];
  required?: string[];
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  properties?: Record<string, JsonSchemaProps>;
  additionalProperties?: boolean | JsonSchemaProps;
  items?: JsonSchemaProps;
  allOf?: JsonSchemaProps[];
  anyOf?: JsonSchemaProps[];
  oneOf?: JsonSchemaProps[];
  not?: JsonSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: JsonValue[];
}

export type FieldCauseReason =
  | 'FieldValueTypeInvalid'
  | 'FieldValueRequired'
  | 'FieldValueNotSupported'
  | 'FieldValueInvalid'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'InternalError';

/** One metav1.StatusCause of a 422 Invalid answer; `message` is the field error without its field. */
export interface FieldCause {
  reason: FieldCauseReason;
  message: string;
  field: string;
}
