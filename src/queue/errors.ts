/**
 * A failure that retrying cannot fix (an invalid Flow definition, a template that cannot parse).
 * The BullMQ consumer turns it into BullMQ's UnrecoverableError (no further attempts); the
 * in-process queue does not requeue it. A later change to the key enqueues it afresh.
 */
export class PermanentError extends Error {
  readonly permanent = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

/** True for PermanentError and for any error that says `permanent: true` (StepError does). */
export function isPermanent(err: unknown): boolean {
  return err instanceof PermanentError || (typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true);
}
