// The closed list of what `flowops render` throws while it runs a Flow against its own server,
// each with a code; the CLI prints the message and exits 1.

export type RenderErrorCode =
  /** The reconciles did not settle within the render's timeout. */
  | 'Timeout'
  /** An object the render was reading was deleted under it. */
  | 'ObjectDisappeared';

export class RenderError extends Error {
  override readonly name: string = 'RenderError';

  constructor(
    readonly code: RenderErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The render timed out; its own class because callers tell it apart from a failed reconcile. */
export class RenderTimeoutError extends RenderError {
  override readonly name = 'RenderTimeoutError';

  constructor(message: string) {
    super('Timeout', message);
  }
}
