import { errors } from '../http/status.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { isObject, objectAt } from './fields.js';

/** core/v1 defaulting that needs no pod spec: Namespace and Secret. */

/** The label every namespace carries (k8s.io/api/core/v1 LabelMetadataName). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * SetDefaults_Namespace (pkg/apis/core/v1/defaults.go) and namespaceStrategy.Canonicalize
 * (pkg/registry/core/namespace/strategy.go): the label is set to the name on every create and
 * update, whatever the client sent for it. Run after generateName is resolved, as Canonicalize is.
 */
export function defaultNamespace(obj: JsonObject): void {
  const meta = objectAt(obj, 'metadata');
  if (typeof meta.name !== 'string' || !meta.name) return;
  objectAt(meta, 'labels')[NAMESPACE_NAME_LABEL] = meta.name;
}

/**
 * SetDefaults_Secret (type Opaque) and Convert_v1_Secret_To_core_Secret
 * (pkg/apis/core/v1/conversion.go): `stringData` overwrites `data` key by key and is dropped, since
 * the internal type has no such field; what is stored and answered only has `data` (base64).
 */
export function defaultSecret(obj: JsonObject): void {
  if (typeof obj.type !== 'string' || obj.type === '') obj.type = 'Opaque';
  const stringData = obj.stringData;
  delete obj.stringData;
  if (!isObject(stringData) || Object.keys(stringData).length === 0) return;
  const data = objectAt(obj, 'data');
  for (const [key, value] of Object.entries(stringData)) {
    // map[string]string: anything else fails to decode, before any conversion.
    if (typeof value !== 'string') {
      throw errors.badRequest(`Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal ${jsonType(value)} into Go struct field Secret.stringData of type string (stringData.${key})`);
    }
    data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
}

/** The JSON type name Go's decoder reports. */
function jsonType(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}
