// The closed list of what the util part throws, each with a code: a value its helpers cannot
// handle. Callers put the message where the value came from (a pipeline's @hash, a status).

export type UtilErrorCode =
  /** A number Go's json.Marshal refuses too (NaN, ±Infinity). */
  'UnsupportedJsonValue';

export class UtilError extends Error {
  override readonly name = 'UtilError';

  constructor(
    readonly code: UtilErrorCode,
    message: string,
  ) {
    super(message);
  }
}
