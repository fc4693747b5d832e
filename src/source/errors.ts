/**
 * The closed list of ways fetching a source fails. Messages name the URL without credentials and
 * never carry a secret, because they end up in status conditions, Events and logs.
 */
export type SourceErrorCode =
  | 'AuthRequired'
  | 'AuthFailed'
  | 'FetchFailed'
  | 'RefNotFound'
  | 'CommitNotFound'
  | 'VerifyKeysInvalid'
  | 'DecryptionKeysInvalid'
  // OCI sources (src/source/oci/): a manifest or blob whose bytes do not hash to the digest that
  // names it, and an artifact that is not a FlowOps/Flux one or whose layer cannot be read whole.
  | 'DigestMismatch'
  | 'ArtifactInvalid'
  // spec.oci.verify (cosign): no signature for the digest, or none by a trusted key over it.
  | 'ArtifactUnsigned'
  | 'ArtifactSignatureInvalid';

export class SourceError extends Error {
  override readonly name = 'SourceError';

  constructor(
    readonly code: SourceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The URL as shown to people: user info stripped, so a token embedded in it never leaks. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}
