import { errors } from '../http/status.js';
import { vendoredOpenApi } from '../openapi/vendored.js';
import type { JsonObject } from '../registry/types.js';
import { goDecodeError } from './go-decoding.js';

/** The endpoint a JSON body was sent to (http/protobuf-body.ts's BodyTarget). */
export interface DecodeTarget {
  group: string;
  version: string;
  kind: string;
  custom: boolean;
}

const rootNames = new Map<string, string>();

/**
 * The 400 kube-apiserver's create and update handlers answer when a JSON body does not decode into
 * the kind's Go type (k8s.io/apiserver pkg/endpoints/handlers/rest.go transformDecodeError):
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: <Go's error>`. Custom resources decode
 * into Unstructured, which takes any JSON; their schemas are checked by CustomResourceAdmission.
 */
export function checkGoDecoding(obj: JsonObject, t: DecodeTarget): void {
  if (t.custom) return;
  const schema = vendoredOpenApi.kindSchema(t.group, t.version, t.kind);
  if (!schema) return;
  const key = `${t.group}/${t.version}/${t.kind}`;
  let rootName = rootNames.get(key);
  if (rootName === undefined) {
    rootName = Object.entries(schema.schemas).find(([, s]) => s === schema.root)?.[0] ?? t.kind;
    rootNames.set(key, rootName);
  }
  const e = goDecodeError(obj, schema.root, schema.schemas, rootName);
  if (e)
    throw errors.badRequest(`${t.kind} in version ${JSON.stringify(t.version)} cannot be handled as a ${t.kind}: ${e}`);
}
