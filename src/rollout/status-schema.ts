// The rollout part of a Flow's status is part of the Flow's API: its one schema is src/api/rollout-status.ts.
export * from '../api/rollout-status.js';
