import type { JsonObject } from '../registry/types.js';

/**
 * The request's options as an AdmissionReview carries them (request.options): the meta.k8s.io/v1
 * Create/Update/Patch/DeleteOptions the query parameters decode to, empty fields left out.
 */
type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

export function admissionOptions(kind: OptionsKind, q: URLSearchParams): JsonObject {
  const o: JsonObject = { kind, apiVersion: 'meta.k8s.io/v1' };
  const dryRun = q.getAll('dryRun');
  if (dryRun.length) o.dryRun = dryRun;
  if (kind === 'DeleteOptions') {
    const grace = q.get('gracePeriodSeconds');
    if (grace !== null && /^-?\d+$/.test(grace)) o.gracePeriodSeconds = Number(grace);
    const policy = q.get('propagationPolicy');
    if (policy) o.propagationPolicy = policy;
    return o;
  }
  const manager = q.get('fieldManager');
  if (manager) o.fieldManager = manager;
  const validation = q.get('fieldValidation');
  if (validation) o.fieldValidation = validation;
  if (kind === 'PatchOptions' && q.get('force') === 'true') o.force = true;
  return o;
}
