// The one small runner both reconcilers are built on (Flux's GitRepositoryReconciler shape: an
// ordered list of sub-steps, then one summarise-and-patch). Each sub-step reads and fills the
// reconcile's own state and either lets the next one run (undefined) or ends the list with a
// result. The summariser always runs once, with the list's result, and is where the status is
// written (once); it may turn the result into another (a success that learned its resync time).

import { success, unexpected, type ReconcileResult } from './result.js';

export interface SubStep<S> {
  /** Said in logs and traces: which sub-step ended the list. */
  readonly name: string;
  run(state: S): Promise<ReconcileResult | undefined>;
}

export type Summariser<S> = (
  state: S,
  result: ReconcileResult,
  endedBy: string | undefined,
) => Promise<ReconcileResult>;

/**
 * Runs the sub-steps in order until one returns a result (every one passing is a success), then
 * the summariser. A sub-step that throws is summarised as an error result with code Unexpected,
 * then the exception goes on to the caller: the queue backs it off, and its stack is not lost.
 */
export async function runReconcile<S>(
  steps: readonly SubStep<S>[],
  state: S,
  summarise: Summariser<S>,
): Promise<ReconcileResult> {
  let result: ReconcileResult = success();
  let endedBy: string | undefined;
  for (const step of steps) {
    let out: ReconcileResult | undefined;
    try {
      out = await step.run(state);
    } catch (err) {
      await summarise(state, unexpected(err), step.name);
      throw err;
    }
    if (out) {
      result = out;
      endedBy = step.name;
      break;
    }
  }
  return summarise(state, result, endedBy);
}
