/** The body is not a protobuf object this server can read; answer 415 UnsupportedMediaType. */
export class ProtobufDecodeError extends Error {
  override readonly name: string = 'ProtobufDecodeError';

  /** `kubeText`: kube-apiserver's wording for the same fault (gogo's error text), when it has one. */
  constructor(
    message: string,
    readonly kubeText?: string,
  ) {
    super(message);
  }
}

/**
 * A field number the decoding tables do not know. Dropping it would store something other than what
 * the client sent, so the body is refused instead; the kind is added by the caller that knows it.
 */
export class UnknownFieldError extends ProtobufDecodeError {
  override readonly name: string = 'UnknownFieldError';

  constructor(
    readonly fieldNumber: number,
    readonly wireType: number,
    readonly messageLabel: string,
    readonly path: string,
  ) {
    super(`unknown field ${fieldNumber} (wire type ${wireType}) in ${messageLabel}${path ? ` at ${path}` : ''}`);
  }
}

/** A stored object that does not fit its protobuf message (a value of the wrong JSON type): answered as JSON instead. */
export class ProtobufEncodeError extends Error {
  override readonly name: string = 'ProtobufEncodeError';
}
