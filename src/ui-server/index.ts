// The face of src/ui-server/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { UiRoute } from './route.js';
// faces:end
