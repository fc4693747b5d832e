import { decodeKubeProtobuf, ProtobufDecodeError, readEnvelope } from '../protobuf/index.js';
import type { JsonObject } from '../schema/types.js';
import { errors } from './status.js';

/** The endpoint a body was sent to: its kind, and whether it is a custom resource (JSON-only on kube-apiserver). */
export interface BodyTarget {
  group: string;
  version: string;
  kind: string;
  custom: boolean;
}

/**
 * A protobuf object body, or the 400 kube-apiserver answers (its create and update handlers' transformDecodeError,
 * k8s.io/apiserver pkg/endpoints/handlers/rest.go): `<Kind> in version "<v>" cannot be handled as a <Kind>: …`
 * once the envelope names a kind, `the object provided is unrecognized (must be of type <Kind>): … (<hex>)` before.
 */
export function decodeProtobufBody(raw: Buffer, target: BodyTarget): JsonObject {
  let env: ReturnType<typeof readEnvelope>;
  try {
    env = readEnvelope(raw);
  } catch (e) {
    if (!(e instanceof ProtobufDecodeError)) throw e;
    throw errors.badRequest(
      `the object provided is unrecognized (must be of type ${target.kind}): ` +
        `${e.kubeText ?? goText(e.message)} (${summary(raw)})`,
    );
  }
  const version = env.apiVersion.split('/').pop() ?? '';
  const cannot = `${env.kind} in version ${JSON.stringify(version)} cannot be handled as a ${target.kind}`;
  if (target.custom) {
    // The CRD handler negotiates protobuf (for PartialObjectMetadata answers) but decodes into Unstructured.
    const why =
      'object *unstructured.Unstructured does not implement the protobuf marshalling interface ' +
      'and cannot be encoded to a protobuf message';
    throw errors.badRequest(`${cannot}: ${why}`);
  }
  let decoded: ReturnType<typeof decodeKubeProtobuf>;
  try {
    decoded = decodeKubeProtobuf(raw);
  } catch (e) {
    if (!(e instanceof ProtobufDecodeError)) throw e;
    throw errors.badRequest(`${cannot}: ${e.kubeText ?? goText(e.message)}`);
  }
  if (env.kind !== target.kind) {
    // Decoded as its own kind, then refused by the scheme's conversion to the endpoint's internal type.
    const from = `${version}.${env.kind}`;
    throw errors.badRequest(
      `${cannot}: converting (${from}) to (${internalPackage(target.group)}.${target.kind}): unknown conversion`,
    );
  }
  return decoded.object;
}

/** The Go package of a group's internal types (k8s.io/kubernetes pkg/apis/<name>): core, apps, networking, … */
function internalPackage(group: string): string {
  if (group === '' || group === 'events.k8s.io') return 'core';
  return group.split('.')[0] ?? group;
}

/** gogo's and the serializer's texts for what the envelope reader found wrong, where it has none of its own. */
function goText(message: string): string {
  if (/missing the "k8s\\0" prefix/.test(message))
    return 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
  return message;
}

/** summarizeData(body, 30): the first 30 bytes in hex, then " ...". */
function summary(raw: Buffer): string {
  if (raw.length === 0) return '<empty>';
  if (raw[0] === 0x7b) return raw.length > 30 ? `${raw.subarray(0, 30).toString('utf8')} ...` : raw.toString('utf8');
  return raw.length > 30 ? `${raw.subarray(0, 30).toString('hex')} ...` : raw.toString('hex');
}
