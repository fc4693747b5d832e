// The face of src/notify: FlowOps' Providers and Alerts, and each commit's status on the forge.
export { Notifier, type NotifierOptions } from './notifier.js';
export type { NotifyEvent } from './event.js';
export type { CommitStateName, CommitTransition } from './commit-state.js';
export { NotifyError, type NotifyErrorCode } from './errors.js';
