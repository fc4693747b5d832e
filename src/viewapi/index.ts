// The face of src/viewapi/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { PolicyRule } from './tokens.js';
// faces:end
