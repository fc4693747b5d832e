// The face of src/preview: pull-request previews (validate, diff against live, one comment and a
// commit status per request; nothing applied).
export { PullRequestPreviewer, type PreviewerOptions, type PreviewOutcome } from './previewer.js';
export { PreviewPoller, type PreviewPollerOptions } from './poller.js';
export { previewComment, type PreviewCommentInput } from './comment.js';
export { PreviewError, type PreviewErrorCode } from './errors.js';

import type { LeaderRunnable } from '../runtime/index.js';
import { PreviewPoller, type PreviewPollerOptions } from './poller.js';

/** The poller as something only the leader runs (`flowops run`): one replica comments, never two. */
export function previewRunnable(opts: PreviewPollerOptions): LeaderRunnable {
  let poller: PreviewPoller | undefined;
  return {
    name: 'previews',
    start: () => {
      poller = new PreviewPoller(opts);
      poller.start();
    },
    stop: async () => {
      await poller?.stop();
      poller = undefined;
    },
  };
}
