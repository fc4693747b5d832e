import { errors } from '../http/status.js';
import { metadataOf, nowTimestamp } from '../objects/meta.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';

const DEFAULT_EXPIRATION = 3600;
const MIN_EXPIRATION = 600;
const MAX_EXPIRATION = 2 ** 32;

/**
 * The `token` subresource of a ServiceAccount (POST …/serviceaccounts/NAME/token, what
 * `kubectl create token` calls): a signed token for it, answered as the TokenRequest with its status.
 */
export async function requestToken(
  tokens: ServiceAccountTokens,
  objects: ObjectStore,
  saType: ResourceType,
  namespace: string,
  name: string,
  body: JsonObject,
): Promise<JsonObject> {
  const stored = objects.getStored(saType, namespace, name);
  if (!stored) throw errors.notFound(saType, name);
  const uid = String(metadataOf(JSON.parse(stored.value) as JsonObject).uid);
  const spec = (body.spec ?? {}) as { audiences?: unknown; expirationSeconds?: unknown; boundObjectRef?: unknown };
  const invalid = (field: string, value: unknown, why: string) =>
    errors.invalid({ ...saType, group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, [
      { type: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${why}` },
    ]);
  const expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION;
  if (typeof expirationSeconds !== 'number' || !Number.isInteger(expirationSeconds))
    throw invalid('spec.expirationSeconds', expirationSeconds, 'must be a whole number of seconds');
  if (expirationSeconds < MIN_EXPIRATION)
    throw invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes');
  if (expirationSeconds > MAX_EXPIRATION)
    throw invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds');
  if (spec.boundObjectRef)
    throw invalid(
      'spec.boundObjectRef',
      spec.boundObjectRef,
      'tokens bound to a Pod, Secret or Node are not supported by the embedded API server; omit boundObjectRef',
    );
  const audiences =
    Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences.map(String) : tokens.defaultAudiences;
  const { token, expiresAt } = await tokens.issue({ namespace, name, uid }, audiences, expirationSeconds);
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, uid, creationTimestamp: nowTimestamp() },
    spec: { audiences, expirationSeconds, boundObjectRef: null },
    status: { token, expirationTimestamp: expiresAt.toISOString().replace(/\.\d+Z$/, 'Z') },
  };
}
