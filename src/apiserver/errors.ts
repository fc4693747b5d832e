// The closed list of the API server's start-up mistakes, each with a code: a flag or a tool it
// needs is wrong, not a request. The CLI's edge (src/cli/main.ts) turns them into exit code 2, as
// it does SetupError. Errors of a request are ApiErrors (http/status.ts), answered as a Status.

export type ApiServerSetupErrorCode =
  /** The openssl CLI that makes the certificates is not installed. */
  | 'OpensslMissing'
  /** openssl ran and failed. */
  | 'OpensslFailed'
  /** --event-ttl is not a positive duration. */
  | 'InvalidEventTtl'
  /** --service-cidr is not an IPv4 network with a prefix of 8 to 30 bits. */
  | 'InvalidServiceCidr';

export class ApiServerSetupError extends Error {
  override readonly name = 'ApiServerSetupError';
  readonly exitCode = 2;

  constructor(
    readonly code: ApiServerSetupErrorCode,
    message: string,
  ) {
    super(message);
  }
}
