// The closed list of what the api part (FlowOps's own CRD types and their schemas) throws besides
// FlowValidationError (validation-error.ts), each with a code. Validation turns them into a
// problem at a field; the CRD generator stops on them.

export type ApiSchemaErrorCode =
  /** A duration that is not a number with a unit ("30s", "1m30s"). */
  | 'InvalidDuration'
  /** A schema construct a Kubernetes structural schema cannot hold. */
  | 'NotStructural';

export class ApiSchemaError extends Error {
  override readonly name = 'ApiSchemaError';

  constructor(
    readonly code: ApiSchemaErrorCode,
    message: string,
  ) {
    super(message);
  }
}
