import type { IncomingMessage } from 'node:http';
import type { DeleteOptions } from '../objects/object-store.js';
import { decodeDeleteOptionsProtobuf, isProtobufContentType, ProtobufDecodeError } from '../protobuf/index.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { mediaType, parseJsonBody, parseYamlBody, readBody } from './body.js';
import { booleanParam } from './query.js';
import { ApiError, errors, type StatusCause } from './status.js';

/** metav1.DeleteOptions as the request carried it, before it is turned into what the store does. */
interface DeleteOptionsRequest {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
  dryRun: string[];
}

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/**
 * The DeleteOptions of a DELETE or DELETE-collection, read as kube-apiserver's DeleteResource and
 * DeleteCollection handlers read them (k8s.io/apiserver/pkg/endpoints/handlers/delete.go): from the
 * body when there is one (JSON, YAML or protobuf, the last what helm 4 sends), otherwise from the
 * query parameters; then checked as metav1 validation's ValidateDeleteOptions checks them.
 */
export async function readDeleteOptions(req: IncomingMessage, q: URLSearchParams): Promise<DeleteOptions> {
  const raw = await readBody(req);
  return checkedOptions(raw.length ? fromBody(bodyObject(req, raw)) : fromQuery(q));
}

/** DeleteOptions carried inside another body (an Eviction's deleteOptions), checked the same way. */
export function deleteOptionsFrom(body: JsonObject): DeleteOptions {
  return checkedOptions(fromBody(body));
}

function checkedOptions(request: DeleteOptionsRequest): DeleteOptions {
  validate(request);
  const opts: DeleteOptions = {};
  if (request.propagationPolicy)
    opts.propagationPolicy = request.propagationPolicy as NonNullable<DeleteOptions['propagationPolicy']>;
  if (request.orphanDependents === true) opts.propagationPolicy = 'Orphan';
  if (request.dryRun.length > 0) opts.dryRun = true;
  if (request.preconditions) opts.preconditions = request.preconditions;
  return opts;
}

function bodyObject(req: IncomingMessage, raw: Buffer): JsonObject {
  const type = mediaType(req);
  if (isProtobufContentType(type)) {
    try {
      return decodeDeleteOptionsProtobuf(raw);
    } catch (e) {
      if (!(e instanceof ProtobufDecodeError)) throw e;
      throw errors.badRequest(e.message);
    }
  }
  // Decoded by the meta.k8s.io codecs, which read JSON, YAML and protobuf and refuse anything else.
  if (type !== 'application/json' && type !== 'application/yaml') throw errors.unsupportedBodyType();
  const site = { object: 'DeleteOptions' };
  const value = type === 'application/yaml' ? parseYamlBody(raw, site) : parseJsonBody(raw, site);
  if (!isObject(value)) throw errors.badRequest('the DeleteOptions body must be an object');
  return value;
}

function fromBody(body: JsonObject): DeleteOptionsRequest {
  const out: DeleteOptionsRequest = { dryRun: [] };
  const grace = body.gracePeriodSeconds;
  if (grace !== undefined && grace !== null) {
    if (typeof grace !== 'number' || !Number.isInteger(grace))
      throw typeError('gracePeriodSeconds', 'an integer', grace);
    out.gracePeriodSeconds = grace;
  }
  const orphan = body.orphanDependents;
  if (orphan !== undefined && orphan !== null) {
    if (typeof orphan !== 'boolean') throw typeError('orphanDependents', 'a boolean', orphan);
    out.orphanDependents = orphan;
  }
  const policy = body.propagationPolicy;
  if (policy !== undefined && policy !== null) {
    if (typeof policy !== 'string') throw typeError('propagationPolicy', 'a string', policy);
    out.propagationPolicy = policy;
  }
  const dryRun = body.dryRun;
  if (dryRun !== undefined && dryRun !== null) {
    if (!Array.isArray(dryRun) || !dryRun.every((d) => typeof d === 'string'))
      throw typeError('dryRun', 'a list of strings', dryRun);
    out.dryRun = dryRun as string[];
  }
  const pre = body.preconditions;
  if (pre !== undefined && pre !== null) {
    if (!isObject(pre)) throw typeError('preconditions', 'an object', pre);
    out.preconditions = {};
    for (const key of ['uid', 'resourceVersion'] as const) {
      const v = pre[key];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') throw typeError(`preconditions.${key}`, 'a string', v);
      out.preconditions[key] = v;
    }
  }
  return out;
}

/** The query form: apimachinery's parameter codec (booleans as booleanParam reads them, int64 strictly). */
function fromQuery(q: URLSearchParams): DeleteOptionsRequest {
  const out: DeleteOptionsRequest = { dryRun: q.getAll('dryRun') };
  const grace = q.get('gracePeriodSeconds');
  if (grace !== null) {
    if (!/^[+-]?\d+$/.test(grace))
      throw errors.badRequest(`gracePeriodSeconds: expected an integer, got ${JSON.stringify(grace)}`);
    out.gracePeriodSeconds = Number(grace);
  }
  if (q.has('orphanDependents')) out.orphanDependents = booleanParam(q, 'orphanDependents');
  const policy = q.get('propagationPolicy');
  if (policy !== null) out.propagationPolicy = policy;
  return out;
}

function validate(o: DeleteOptionsRequest): void {
  const causes: StatusCause[] = [];
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    causes.push(
      invalid(
        'propagationPolicy',
        `Invalid value: ${JSON.stringify(o.propagationPolicy)}: orphanDependents and deletionPropagation cannot be both set`,
      ),
    );
  }
  if (o.propagationPolicy !== undefined && !POLICIES.includes(o.propagationPolicy)) {
    causes.push(unsupported('propagationPolicy', JSON.stringify(o.propagationPolicy), [...POLICIES, 'nil']));
  }
  if (o.dryRun.some((d) => d !== 'All')) causes.push(unsupported('dryRun', JSON.stringify(o.dryRun), ['All']));
  if (!causes.length) return;
  // NewInvalid(GroupKind{meta.k8s.io, DeleteOptions}, "", errs), as delete.go answers.
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  throw new ApiError(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: ${summary}`, {
    group: 'meta.k8s.io',
    kind: 'DeleteOptions',
    causes,
  });
}

function invalid(field: string, message: string): StatusCause {
  return { reason: 'FieldValueInvalid', message, field };
}

function unsupported(field: string, shown: string, allowed: string[]): StatusCause {
  return {
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${shown}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
    field,
  };
}

function typeError(field: string, expected: string, got: JsonValue): ApiError {
  return errors.badRequest(`DeleteOptions: ${field} must be ${expected}, got ${JSON.stringify(got)}`);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
