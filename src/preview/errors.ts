/**
 * The closed list of ways a pull-request preview fails. Messages name the source, the provider and
 * the pull request, never a token or a secret value: they reach logs, Events and the comment.
 */
export type PreviewErrorCode =
  | 'NotAForge'
  | 'InvalidAddress'
  | 'ProviderNotFound'
  | 'BadForgeAnswer'
  | 'FetchFailed'
  | 'SourceInvalid';

export class PreviewError extends Error {
  override readonly name = 'PreviewError';

  constructor(
    readonly code: PreviewErrorCode,
    message: string,
  ) {
    super(message);
  }
}
