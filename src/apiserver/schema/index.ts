export type { FieldCause, FieldCauseReason, JsonObject, JsonSchemaProps, JsonValue } from './types.js';
export type { ValidateOptions } from './validate.js';
export { validateObject } from './validate.js';
export { findUnknownFields, pruneUnknownFields } from './prune.js';
export { applyDefaults } from './defaults.js';
export { validateCrdSchema } from './crd-schema.js';
export { formatInvalidMessage } from './field-errors.js';
