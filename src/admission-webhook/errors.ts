/**
 * The closed list of ways the admission webhook fails. Messages name objects and fields, never a
 * key: they reach logs and the API server's error text.
 */
export type WebhookErrorCode =
  | 'BadReview' // the request body is not an AdmissionReview v1 this webhook can answer (400)
  | 'CertSecretInvalid' // the Secret holding the CA exists but cannot be read as one
  | 'CertFilesUnreadable' // --admission-cert-dir (cert-manager's) has no readable tls.crt/tls.key
  | 'ListenFailed';

export class WebhookError extends Error {
  override readonly name = 'WebhookError';

  constructor(
    readonly code: WebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}
