import type { JsonObject } from '../schema/types.js';
import { ProtobufDecodeError, UnknownFieldError } from './errors.js';
import { KIND_DECODERS } from './kinds.js';
import { deleteOptions } from './api/meta-v1.js';
import { readMessage, stringOf, bytesOf, messageOf, type Field } from './reader.js';

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

/** The runtime.Unknown envelope every Kubernetes protobuf body is: {1 typeMeta, 2 raw, 3 contentEncoding, 4 contentType}. */
interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Buffer;
}

function readEnvelope(body: Buffer): Envelope {
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
  return { apiVersion, kind, raw };
}

/** Runs a table's decoder, naming the kind (and, for an unknown field, what to do instead) on failure. */
function decodeInside(env: Envelope, decode: (fields: Field[]) => JsonObject): JsonObject {
  try {
    return decode(readMessage(env.raw, env.kind));
  } catch (e) {
    if (!(e instanceof ProtobufDecodeError)) throw e;
    const hint = e instanceof UnknownFieldError ? '; send the object as JSON instead' : '';
    throw new ProtobufDecodeError(`cannot decode ${env.apiVersion}, Kind=${env.kind} from protobuf: ${e.message}${hint}`);
  }
}

/**
 * Decodes an object body (POST, PUT) as kubectl ≥ 1.32 sends it. Only kinds in KIND_DECODERS are
 * understood; anything else, any malformed or truncated body, and a field a table-driven kind does
 * not know throw ProtobufDecodeError.
 */
export function decodeKubeProtobuf(body: Buffer): DecodedObject {
  const env = readEnvelope(body);
  const { apiVersion, kind } = env;
  const key = `${apiVersion}/${kind}`;
  const decode = Object.hasOwn(KIND_DECODERS, key) ? KIND_DECODERS[key] : undefined;
  if (!decode) throw new ProtobufDecodeError(`no protobuf decoder for ${apiVersion}, Kind=${kind}`);
  const object: JsonObject = { apiVersion, kind, ...decodeInside(env, decode) };
  return { apiVersion, kind, object };
}

/**
 * Decodes a metav1.DeleteOptions body (DELETE, DELETE-collection; helm 4 sends these) into its JSON
 * form, without apiVersion and kind. client-go stamps the envelope with the group version of the
 * resource's client (`v1`, `apps/v1`, …) or `meta.k8s.io/v1`; the kind must be DeleteOptions.
 */
export function decodeDeleteOptionsProtobuf(body: Buffer): JsonObject {
  const env = readEnvelope(body);
  if (env.kind !== 'DeleteOptions') {
    throw new ProtobufDecodeError(`expected a DeleteOptions body, got ${env.apiVersion}, Kind=${env.kind}`);
  }
  return decodeInside(env, (fields) => deleteOptions.decodeFields(fields, ''));
}
