// The closed list of what the view API part throws: it cannot start as configured (no TLS outside
// development, no openssl to make a key), or a token it was given carries no identity. The CLI
// prints the first kind as a one-line setup error; the auth route answers the second with a 401.

export type ViewApiErrorCode = 'ViewApiSetup' | 'InvalidViewToken';

export abstract class ViewApiError extends Error {
  abstract readonly code: ViewApiErrorCode;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class ViewApiSetupError extends ViewApiError {
  readonly code = 'ViewApiSetup' as const;
}

export class InvalidViewTokenError extends ViewApiError {
  readonly code = 'InvalidViewToken' as const;
}
