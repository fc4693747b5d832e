// AdmissionReview v1 in, AdmissionReview v1 out (k8s.io/api/admission/v1). A body that is not a
// review this webhook can answer is a WebhookError('BadReview'), which the server answers with 400
// so the API server applies the webhook's failurePolicy.
import type { SchemaRegistry } from '../typecheck/index.js';
import { WebhookError } from './errors.js';
import { CHECKED_KINDS, checkObject, formatFinding, needsCheck, type CheckedKind } from './object-checks.js';

const API_VERSION = 'admission.k8s.io/v1';
/** The API server shows the message whole; past a few problems a reader wants the first ones. */
const SHOWN_PROBLEMS = 10;

export interface AdmissionRequest {
  uid: string;
  kind: CheckedKind & { version: string };
  operation: string;
  object: Record<string, unknown> | undefined;
  oldObject: Record<string, unknown> | undefined;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code: number; reason: string; message: string };
  warnings?: string[];
}

export interface AdmissionReviewOut {
  apiVersion: typeof API_VERSION;
  kind: 'AdmissionReview';
  response: AdmissionResponse;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bad(message: string): WebhookError {
  return new WebhookError('BadReview', `malformed AdmissionReview: ${message}`);
}

/** The request of an AdmissionReview v1 body, or BadReview naming the field that is wrong. */
export function parseAdmissionReview(body: unknown): AdmissionRequest {
  if (!isRecord(body)) throw bad('the body is not a JSON object');
  if (body.apiVersion !== API_VERSION)
    throw bad(`apiVersion: expected "${API_VERSION}", got ${JSON.stringify(body.apiVersion)}`);
  if (body.kind !== 'AdmissionReview') throw bad(`kind: expected "AdmissionReview", got ${JSON.stringify(body.kind)}`);
  const req = body.request;
  if (!isRecord(req)) throw bad('request: required');
  if (typeof req.uid !== 'string' || !req.uid) throw bad('request.uid: required');
  const kind = req.kind;
  if (
    !isRecord(kind) ||
    typeof kind.kind !== 'string' ||
    typeof kind.group !== 'string' ||
    typeof kind.version !== 'string'
  ) {
    throw bad('request.kind: expected {group, version, kind}');
  }
  if (typeof req.operation !== 'string') throw bad('request.operation: required');
  if (req.object !== undefined && req.object !== null && !isRecord(req.object))
    throw bad('request.object: expected an object');
  const object = isRecord(req.object) ? req.object : undefined;
  const oldObject = isRecord(req.oldObject) ? req.oldObject : undefined;
  const k = { group: kind.group, version: kind.version, kind: kind.kind };
  return { uid: req.uid, kind: k, operation: req.operation, object, oldObject };
}

function isChecked(kind: CheckedKind): boolean {
  return CHECKED_KINDS.some((k) => k.group === kind.group && k.kind === kind.kind);
}

/** The answer to one request: refused with every error (field: reason), warnings passed on. */
export function answerAdmission(req: AdmissionRequest, registry: SchemaRegistry): AdmissionReviewOut {
  const envelope = (response: AdmissionResponse): AdmissionReviewOut => ({
    apiVersion: API_VERSION,
    kind: 'AdmissionReview',
    response,
  });
  if (!req.object || !isChecked(req.kind) || !needsCheck(req.operation, req.object, req.oldObject)) {
    return envelope({ uid: req.uid, allowed: true });
  }
  const findings = checkObject(req.kind, req.object, registry);
  const errors = findings.filter((f) => f.severity === 'error').map(formatFinding);
  const warnings = findings.filter((f) => f.severity === 'warning').map(formatFinding);
  const withWarnings = warnings.length ? { warnings } : {};
  if (!errors.length) return envelope({ uid: req.uid, allowed: true, ...withWarnings });
  const name =
    typeof req.object.metadata === 'object' && req.object.metadata !== null
      ? (req.object.metadata as { name?: unknown }).name
      : undefined;
  const more = errors.length > SHOWN_PROBLEMS ? `; and ${errors.length - SHOWN_PROBLEMS} more` : '';
  const shown = errors.slice(0, SHOWN_PROBLEMS).join('; ');
  const message = `${req.kind.kind} ${JSON.stringify(String(name ?? ''))} is invalid: ${shown}${more}`;
  return envelope({ uid: req.uid, allowed: false, status: { code: 422, reason: 'Invalid', message }, ...withWarnings });
}
