/** The body is not a protobuf object this server can read; answer 415 UnsupportedMediaType. */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}
