/**
 * The closed list of ways `flowops up`'s controllers thread fails, as the main thread reports
 * them. A failure after start is not retried in the process: `up` logs it and exits non-zero, so
 * whatever runs it (a terminal, systemd, a container's restart policy) sees it.
 */
export type ControllersThreadErrorCode =
  /** dist/ has no up-controllers.js beside the chunk that starts it (a build of another version). */
  | 'EntryMissing'
  /** The thread threw: at start (a part failed to start) or later (an uncaught error). */
  | 'ThreadFailed'
  /** The thread ended without being asked to. */
  | 'ThreadExited'
  /** Asked to stop, the thread did not end within the deadline: it is terminated. */
  | 'StopTimeout';

export class ControllersThreadError extends Error {
  override readonly name = 'ControllersThreadError';

  constructor(
    readonly code: ControllersThreadErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
