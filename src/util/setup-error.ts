// Mistakes in how FlowOps was started (no cluster to talk to, no Redis), as opposed to failures
// of the work itself: one line that says what is wrong and what to do, and exit code 2, the
// convention of kubectl and flux for usage and configuration errors.

export class SetupError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
};

/** A connection failure deep inside a request, as one line about the server it could not reach. */
export function asSetupError(err: unknown, what: string, hint: string): SetupError | undefined {
  let e: unknown = err;
  // Node wraps connection failures (AggregateError for happy-eyeballs, `cause` chains).
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: string }).code;
    if (code && NETWORK_CODES[code]) return new SetupError(`cannot reach ${what} (${NETWORK_CODES[code]}): ${hint}`);
    e = (e as { cause?: unknown }).cause ?? (e as { errors?: unknown[] }).errors?.[0];
  }
  return undefined;
}

/** The command's own work failed (a push refused, a wait that ran out): exit 1, with the reason. */
export class CommandFailedError extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailedError';
  }
}

/** An object the command names does not exist: exit 1, as kubectl's NotFound, not a usage error. */
export class NotFoundError extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}
