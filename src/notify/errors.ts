/**
 * The closed list of ways a delivery fails. Messages name the provider and the HTTP status, never
 * the address (a Slack or Discord webhook URL is itself a credential) nor a token: they end up in
 * the Provider's condition, Events and logs.
 */
export type NotifyErrorCode =
  | 'Unauthorized'
  | 'NotFound'
  | 'Unprocessable'
  | 'Rejected'
  | 'ServerError'
  | 'Timeout'
  | 'NetworkError'
  | 'InvalidProvider'
  | 'SecretNotFound';

export class NotifyError extends Error {
  override readonly name = 'NotifyError';

  constructor(
    readonly code: NotifyErrorCode,
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/** The code for an HTTP answer that is not a success. */
export function codeOfStatus(status: number): NotifyErrorCode {
  if (status === 401 || status === 403) return 'Unauthorized';
  if (status === 404) return 'NotFound';
  if (status === 422 || status === 400) return 'Unprocessable';
  if (status >= 500) return 'ServerError';
  return 'Rejected';
}
