// The face of src/render/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { readDefinitions } from './definitions.js';
export { compareGolden, updateGolden } from './golden-files.js';
export { startRenderSession } from './render-session.js';
export { renderedObjects } from './rendered-object.js';
export { kindKey, readSampleObjects, type WatchedKind } from './sample-objects.js';
export { sourceDirOf } from './source-dir.js';
export { StepStubs, installStubs, missingStubs } from './step-stubs.js';
// faces:end
