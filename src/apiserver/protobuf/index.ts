import type { JsonObject } from '../schema/types.js';
import { ProtobufDecodeError, UnknownFieldError } from './errors.js';
import { KIND_DECODERS } from './kinds.js';
import { readMessage, stringOf, bytesOf, messageOf } from './reader.js';

export { ProtobufDecodeError, UnknownFieldError } from './errors.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** `k8s\0`: every Kubernetes protobuf body starts with it. */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export function isProtobufContentType(ct: string | undefined): boolean {
  return (ct ?? '').split(';')[0]!.trim().toLowerCase() === PROTOBUF_MEDIA_TYPE;
}

export interface DecodedObject {
  apiVersion: string;
  kind: string;
  /** The object as the equivalent JSON request would carry it, apiVersion and kind included. */
  object: JsonObject;
}

/**
 * Decodes the runtime.Unknown envelope kubectl ≥ 1.32 sends ({1 typeMeta, 2 raw, 3 contentEncoding,
 * 4 contentType}) and the object inside. Only kinds in KIND_DECODERS are understood; anything else,
 * any malformed or truncated body, and a field a table-driven kind does not know throw ProtobufDecodeError.
 */
export function decodeKubeProtobuf(body: Buffer): DecodedObject {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new ProtobufDecodeError('not a Kubernetes protobuf body: missing the "k8s\\0" prefix');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Buffer | undefined;
  let contentEncoding = '';
  const what = 'runtime.Unknown';
  for (const f of readMessage(body.subarray(MAGIC.length), what)) {
    if (f.number === 1) {
      for (const t of messageOf(f, 'TypeMeta')) {
        if (t.number === 1) apiVersion = stringOf(t, 'TypeMeta');
        else if (t.number === 2) kind = stringOf(t, 'TypeMeta');
      }
    } else if (f.number === 2) raw = bytesOf(f, what);
    else if (f.number === 3) contentEncoding = stringOf(f, what);
  }
  if (contentEncoding) throw new ProtobufDecodeError(`unsupported protobuf content encoding ${JSON.stringify(contentEncoding)}`);
  if (!kind) throw new ProtobufDecodeError('protobuf body has no kind in its TypeMeta');
  // A body cut right after typeMeta would otherwise pass as an empty object.
  if (!raw) throw new ProtobufDecodeError(`protobuf body for ${kind} has no object in it (runtime.Unknown raw is missing)`);
  const key = `${apiVersion}/${kind}`;
  const decode = Object.hasOwn(KIND_DECODERS, key) ? KIND_DECODERS[key] : undefined;
  if (!decode) throw new ProtobufDecodeError(`no protobuf decoder for ${apiVersion}, Kind=${kind}`);
  let decoded: JsonObject;
  try {
    decoded = decode(readMessage(raw, kind));
  } catch (e) {
    if (!(e instanceof ProtobufDecodeError)) throw e;
    const hint = e instanceof UnknownFieldError ? '; send the object as JSON instead' : '';
    throw new ProtobufDecodeError(`cannot decode ${apiVersion}, Kind=${kind} from protobuf: ${e.message}${hint}`);
  }
  const object: JsonObject = { apiVersion, kind, ...decoded };
  return { apiVersion, kind, object };
}
