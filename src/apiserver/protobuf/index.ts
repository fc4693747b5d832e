import { LRUCache } from 'lru-cache';
import protobuf from 'protobufjs';
import type { JsonObject } from '../schema/types.js';
import { kindMessage, metaMessage } from './descriptors.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { bytesOf, messageOf, readMessage, stringOf, type Field } from './reader.js';
import type { MessageType } from './schema.js';

export { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
export { goSemanticEqual } from './go-semantic-equal.js';
export { fillGoZeroValues, goZeroValue } from './go-zero-values.js';

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

/** The runtime.Unknown envelope of every protobuf body: {1 typeMeta, 2 raw, 3 contentEncoding, 4 contentType}. */
export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Buffer;
}

export function readEnvelope(body: Buffer): Envelope {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new ProtobufDecodeError('not a Kubernetes protobuf body: missing the "k8s\\0" prefix');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Buffer | undefined;
  let contentEncoding = '';
  // gogo names the message by its Go type: `proto: Unknown: illegal tag 0 (wire type 0)`.
  const what = 'Unknown';
  for (const f of readMessage(body.subarray(MAGIC.length), what)) {
    if (f.number === 1) {
      for (const t of messageOf(f, 'TypeMeta')) {
        if (t.number === 1) apiVersion = stringOf(t, 'TypeMeta');
        else if (t.number === 2) kind = stringOf(t, 'TypeMeta');
      }
    } else if (f.number === 2) raw = bytesOf(f, what);
    else if (f.number === 3) contentEncoding = stringOf(f, what);
  }
  if (contentEncoding)
    throw new ProtobufDecodeError(`unsupported protobuf content encoding ${JSON.stringify(contentEncoding)}`);
  if (!kind) throw new ProtobufDecodeError('protobuf body has no kind in its TypeMeta');
  // A body cut right after typeMeta would otherwise pass as an empty object.
  if (!raw)
    throw new ProtobufDecodeError(`protobuf body for ${kind} has no object in it (runtime.Unknown raw is missing)`);
  return { apiVersion, kind, raw };
}

/** Runs a message's decoder, naming the kind on failure. */
function decodeInside(env: Envelope, decode: (fields: Field[]) => JsonObject): JsonObject {
  try {
    return decode(readMessage(env.raw, env.kind));
  } catch (e) {
    if (!(e instanceof ProtobufDecodeError)) throw e;
    throw new ProtobufDecodeError(
      `cannot decode ${env.apiVersion}, Kind=${env.kind} from protobuf: ${e.message}`,
      e.kubeText,
    );
  }
}

/** The message of an envelope's kind: the group-version's own, else apimachinery's (Status, DeleteOptions, …). */
function messageOfKind(apiVersion: string, kind: string): MessageType | undefined {
  return kindMessage(apiVersion, kind) ?? metaMessage(kind);
}

/**
 * Decodes an object body (POST, PUT) of any kind k8s.io/api has a message for, from its generated.proto;
 * anything else, any malformed or truncated body, and a field 1.34's messages do not know throw ProtobufDecodeError.
 */
export function decodeKubeProtobuf(body: Buffer): DecodedObject {
  const env = readEnvelope(body);
  const { apiVersion, kind } = env;
  const m = kindMessage(apiVersion, kind);
  if (!m) throw new ProtobufDecodeError(`no protobuf decoder for ${apiVersion}, Kind=${kind}`);
  const object: JsonObject = { apiVersion, kind, ...decodeInside(env, (fields) => m.decodeFields(fields, '')) };
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
  const m = metaMessage('DeleteOptions');
  if (!m) throw new ProtobufDecodeError('no protobuf decoder for meta.k8s.io/v1, Kind=DeleteOptions');
  return decodeInside(env, (fields) => m.decodeFields(fields, ''));
}

/** Whether an object of `kind` in `apiVersion` has a protobuf form (no custom resource has). */
export function hasProtobufForm(apiVersion: string, kind: string): boolean {
  return messageOfKind(apiVersion, kind) !== undefined;
}

/** The bare message of a JSON object (no envelope): what a list's items or a watch event's frame carry. */
function messageBytes(obj: JsonObject, apiVersion: string, kind: string): Uint8Array {
  const m = messageOfKind(apiVersion, kind);
  if (!m) throw new ProtobufEncodeError(`object ${apiVersion}, Kind=${kind} has no protobuf form`);
  const w = protobuf.Writer.create();
  m.encodeFields(w, obj, '');
  return w.finish();
}

/** `k8s\0` + runtime.Unknown{typeMeta, raw, contentEncoding "", contentType ""}, as gogo writes it. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const w = protobuf.Writer.create();
  w.uint32(10).fork().uint32(10).string(apiVersion).uint32(18).string(kind).ldelim();
  w.uint32(18).bytes(raw);
  w.uint32(26).string('');
  w.uint32(34).string('');
  return Buffer.concat([MAGIC, w.finish()]);
}

/** An object (with its apiVersion and kind) as a Kubernetes protobuf body. */
export function encodeKubeProtobuf(obj: JsonObject): Buffer {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  return envelope(apiVersion, kind, messageBytes(obj, apiVersion, kind));
}

/**
 * Stored object texts and their protobuf messages, so that a list read again (an informer's relist, the same
 * objects to many watchers) encodes only what changed; bounded by bytes, keys (the texts) counted too.
 */
const encodedItems = new LRUCache<string, { type: string; bytes: Uint8Array }>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (v, k) => v.bytes.length + k.length,
});

function itemBytes(text: string, apiVersion: string, kind: string): Uint8Array {
  const type = `${apiVersion}/${kind}`;
  const hit = encodedItems.get(text);
  if (hit && hit.type === type) return hit.bytes;
  const bytes = messageBytes(JSON.parse(text) as JsonObject, apiVersion, kind);
  encodedItems.set(text, { type, bytes });
  return bytes;
}

/** A `<Kind>List` from its metadata and its items' stored JSON texts, each item's message encoded (or cached) alone. */
export function encodeListOfTexts(list: {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  items: string[];
}): Buffer {
  const itemKind = list.kind.replace(/List$/, '');
  const listMeta = metaMessage('ListMeta');
  if (!listMeta || !messageOfKind(list.apiVersion, list.kind))
    throw new ProtobufEncodeError(`object ${list.apiVersion}, Kind=${list.kind} has no protobuf form`);
  const w = protobuf.Writer.create();
  listMeta.encode(w, 1, list.metadata as JsonObject, 'metadata');
  for (const text of list.items) w.uint32(18).bytes(itemBytes(text, list.apiVersion, itemKind));
  return envelope(list.apiVersion, list.kind, w.finish());
}

/**
 * One frame of a protobuf watch stream (k8s.io/apimachinery runtime/serializer/protobuf, the raw serializer
 * with LengthDelimitedFramer): a 4-byte big-endian length, then a bare metav1.WatchEvent whose object is a
 * RawExtension holding the object's own envelope-encoded bytes.
 */
export function encodeWatchFrame(type: string, object: JsonObject): Buffer {
  return frame(type, encodeKubeProtobuf(object));
}

/** The same for an object given as its stored text, of a known kind: its message comes from the item cache. */
export function encodeWatchFrameOfText(type: string, text: string, apiVersion: string, kind: string): Buffer {
  if (!messageOfKind(apiVersion, kind))
    throw new ProtobufEncodeError(`object ${apiVersion}, Kind=${kind} has no protobuf form`);
  return frame(type, envelope(apiVersion, kind, itemBytes(text, apiVersion, kind)));
}

function frame(type: string, object: Uint8Array): Buffer {
  const w = protobuf.Writer.create();
  w.uint32(10).string(type);
  w.uint32(18).fork().uint32(10).bytes(object).ldelim();
  const event = w.finish();
  const out = Buffer.alloc(4 + event.length);
  out.writeUInt32BE(event.length, 0);
  out.set(event, 4);
  return out;
}
