// The face of src/diff/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { definitionsFromCommit, definitionsFromDir, type LocalDefinitions } from './definition-files.js';
export { previewSync, type ObjectChange, type Preview } from './preview.js';
// faces:end
