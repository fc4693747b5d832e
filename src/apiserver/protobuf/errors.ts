/** The body is not a protobuf object this server can read; answered 400 as kube-apiserver's decode errors are. */
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

/** A stored object that does not fit its protobuf message (a value of the wrong JSON type): answered as JSON. */
export class ProtobufEncodeError extends Error {
  override readonly name: string = 'ProtobufEncodeError';
}
