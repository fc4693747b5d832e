// The face of src/notify: FlowOps' Providers and Alerts, and each commit's status on the forge.
export { Notifier, type NotifierOptions } from './notifier.js';
export type { NotifyEvent } from './event.js';
export type { CommitStateName, CommitTransition } from './commit-state.js';
export { NotifyError, type NotifyErrorCode } from './errors.js';

import type { LeaderRunnable } from '../runtime/index.js';
import { Notifier, type NotifierOptions } from './notifier.js';

/** The notifier as something only the leader runs (`flowops run`): one replica sends, never two. */
export function notifyRunnable(opts: NotifierOptions): LeaderRunnable {
  let notifier: Notifier | undefined;
  return {
    name: 'notify',
    start: () => {
      notifier = new Notifier(opts);
      notifier.start();
    },
    stop: async () => {
      await notifier?.stop();
      notifier = undefined;
    },
  };
}

// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { send, type Connection, type OutgoingRequest } from './http-send.js';
export type { ResolvedProvider } from './message.js';
export { commitStatusRequest } from './providers/index.js';
export { resolveProvider } from './resolve-provider.js';
// faces:end
