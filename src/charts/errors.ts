/**
 * The closed list of ways pulling a chart fails; a template step that fails on one has the code as
 * its outcome reason. Messages name the repository without credentials: they reach run history,
 * status conditions and logs.
 */
export type ChartErrorCode =
  // The repository asks for credentials and none were given, or refused the ones given (401/403).
  | 'ChartAuthRequired'
  | 'ChartAuthFailed'
  // No chart of that name, no version in the range, or an index/tag list that answers 404.
  | 'ChartNotFound'
  | 'ChartVersionNotFound'
  // The .tgz does not hash to index.yaml's `digest` or to the OCI layer's digest, or is cut short.
  | 'ChartDigestMismatch'
  // An index.yaml that does not parse, an OCI manifest that is not a Helm chart, a .tgz over the limit.
  | 'ChartInvalid'
  // The connection failed or the repository answered with another error (5xx).
  | 'ChartFetchFailed'
  // The step names a repository or version FlowOps cannot use (a rendered version that is no range).
  | 'ChartRefInvalid'
  // chart.verify: no .prov beside the archive (HTTP) or no provenance layer (OCI).
  | 'ChartProvenanceMissing'
  // chart.verify: a .prov that is not a clear-signed Helm provenance document.
  | 'ChartProvenanceInvalid'
  // chart.verify: signed by a key not in the keyring.
  | 'ChartSignerUntrusted'
  // chart.verify: the signature does not hold, or its key is expired or revoked.
  | 'ChartSignatureInvalid'
  // chart.verify: the signed provenance names another digest for the archive, or not the archive.
  | 'ChartProvenanceMismatch'
  // chart.verify: the keyring Secret holds no usable OpenPGP public key.
  | 'ChartVerifyKeysInvalid';

export class ChartError extends Error {
  override readonly name = 'ChartError';

  constructor(
    readonly code: ChartErrorCode,
    message: string,
  ) {
    super(message);
  }
}
