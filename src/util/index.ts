// The face of src/util/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { BackoffOptions } from './backoff.js';
export type { Doc } from './json-value.js';
export { SetupError } from './setup-error.js';
export { findYamlFiles } from './yaml-files.js';
// faces:end
