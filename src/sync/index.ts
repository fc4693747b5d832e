// The face of src/sync/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { decryptFiles } from './decrypt-files.js';
export { foreignOwner, isAdopted } from './foreign.js';
export { describeEntry, refOfEntry } from './inventory.js';
export { phaseOf } from './order.js';
export { entryOf, planCommit, pruneCandidates, type DefinitionFile, type DesiredObject } from './plan.js';
export { provenanceOf, stamp } from './provenance.js';
export { pruneObjects } from './prune-objects.js';
export { listServerCrds } from './server-crds.js';
export { syncCommit, type SyncOutcome } from './sync-commit.js';
// faces:end
