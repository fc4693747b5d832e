// The face of src/notify: FlowOps' Providers and Alerts, and each commit's status on the forge.
export { Notifier, type NotifierOptions } from './notifier.js';
export type { NotifyEvent } from './event.js';
export type { CommitStateName, CommitTransition } from './commit-state.js';
export { NotifyError, type NotifyErrorCode } from './errors.js';

import type { LeaderRunnable } from '../runtime/leader-work.js';
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
