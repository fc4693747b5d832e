// The closed list of what the controller part throws, each with a code. A Flow's entry keeps the
// message as the reason it is invalid; a malformed key is dropped by the queue's handler.

export type ControllerErrorCode =
  /** A reconcile key that is not six fields. */
  | 'MalformedKey'
  /** The Flow watches a namespace the tenancy policy does not let it reach. */
  | 'TenancyRefused';

export class ControllerError extends Error {
  override readonly name = 'ControllerError';

  constructor(
    readonly code: ControllerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
