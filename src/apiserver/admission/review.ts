import { randomUUID } from 'node:crypto';
import { type JsonObject, type JsonValue, type ResourceType, apiVersionOf } from '../registry/types.js';
import type { AdmissionAttributes } from './attributes.js';

/**
 * AdmissionReview v1 in and out, as staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/
 * request/admissionreview.go builds and checks it (CreateAdmissionObjects, VerifyAdmissionResponse).
 */
export interface ReviewResult {
  allowed: boolean;
  status: JsonObject | undefined;
  patch: string | undefined;
  patchType: string | undefined;
  warnings: string[];
}

/** The object as the webhook's version has it (conversion None: only apiVersion differs). */
export function versioned(obj: JsonObject | undefined, t: ResourceType): JsonObject | null {
  if (!obj) return null;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return { kind: t.kind, apiVersion: apiVersionOf(t), ...rest };
}

export function reviewRequest(
  a: AdmissionAttributes,
  t: ResourceType,
  object: JsonObject | undefined,
): { uid: string; body: string } {
  const uid = randomUUID();
  const user = a.user ?? { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  const userInfo: JsonObject = { username: user.username };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length) userInfo.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length) userInfo.extra = user.extra;
  const request: JsonObject = {
    uid,
    kind: { group: t.group, version: t.version, kind: t.kind },
    resource: { group: t.group, version: t.version, resource: t.plural },
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: { group: a.t.group, version: a.t.version, kind: a.t.kind },
    requestResource: { group: a.t.group, version: a.t.version, resource: a.t.plural },
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo,
    object: versioned(object, t),
    oldObject: versioned(a.oldObject, t),
    dryRun: a.dryRun,
    options: a.options,
  };
  return { uid, body: JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request }) };
}

const isMap = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws the text kube-apiserver wraps in `received invalid webhook response: …`. */
export function verifyResponse(uid: string, mutating: boolean, review: unknown): ReviewResult {
  const r = isMap(review) ? review : {};
  const response = r.response;
  if (!isMap(response)) throw new InvalidResponse('webhook response was absent');
  const got = typeof response.uid === 'string' ? response.uid : '';
  if (got !== uid) throw new InvalidResponse(`expected response.uid="${uid}", got "${got}"`);
  if (r.apiVersion !== 'admission.k8s.io/v1' || r.kind !== 'AdmissionReview') {
    const want = 'admission.k8s.io/v1, Kind=AdmissionReview';
    throw new InvalidResponse(`expected webhook response of ${want}, got ${shownGvk(r)}`);
  }
  const patchType = typeof response.patchType === 'string' ? response.patchType : '';
  const patch = typeof response.patch === 'string' ? response.patch : '';
  if (mutating) {
    if (patchType !== '' && patchType !== 'JSONPatch') {
      throw new InvalidResponse(`unsupported patch type "${patchType}"`);
    }
  } else {
    const refuse = 'validating webhooks may not return patches';
    if (patchType) throw new InvalidResponse(`${refuse}, got patchType "${patchType}"`);
    if (patch) throw new InvalidResponse(`${refuse}, got ${Buffer.from(patch, 'base64').length} bytes`);
  }
  const listed = Array.isArray(response.warnings) ? response.warnings : [];
  const warnings = listed.filter((w): w is string => typeof w === 'string');
  return {
    allowed: response.allowed === true,
    status: isMap(response.status) ? response.status : undefined,
    patch: patch || undefined,
    patchType: patchType || undefined,
    warnings,
  };
}

function shownGvk(r: { apiVersion?: JsonValue | undefined; kind?: JsonValue | undefined }): string {
  const apiVersion = typeof r.apiVersion === 'string' ? r.apiVersion : '';
  const kind = typeof r.kind === 'string' ? r.kind : '';
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  return `${gv}, Kind=${kind}`;
}

export class InvalidResponse extends Error {
  readonly code = 'InvalidWebhookResponse' as const;
}
