import { ApiError } from '../http/status.js';
import type { JsonObject } from '../registry/types.js';

/**
 * The Status a webhook's refusal or failure becomes, as kube-apiserver 1.34 words it:
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go (ToStatusErr,
 * NewDryRunUnsupportedErr) and pkg/util/webhook/error.go (ErrCallingWebhook), wrapped by
 * apierrors.NewInternalError when failurePolicy is Fail.
 */
export function deniedByWebhook(name: string, status: JsonObject | undefined): ApiError {
  const s = status ?? {};
  const code = typeof s.code === 'number' && s.code >= 400 ? s.code : 400;
  const denied = `admission webhook "${name}" denied the request`;
  const message = typeof s.message === 'string' && s.message ? s.message : '';
  const reason = typeof s.reason === 'string' ? s.reason : '';
  const text = message ? `${denied}: ${message}` : reason ? `${denied}: ${reason}` : `${denied} without explanation`;
  // The webhook's own details are not passed on (a partial copy of ToStatusErr's).
  return new ApiError(code, reason, text);
}

export function failedCalling(name: string, reason: string): ApiError {
  const text = `failed calling webhook "${name}": ${reason}`;
  return internal(text);
}

export function internal(text: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
}

export function dryRunUnsupported(name: string): ApiError {
  return new ApiError(400, 'BadRequest', `admission webhook "${name}" does not support dry run`);
}
