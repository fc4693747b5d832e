import { type ResourceType, qualifiedKind, qualifiedResource } from '../registry/types.js';

export interface StatusCause {
  type?: string;
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A failure answered as a metav1.Status, shaped exactly as kube-apiserver shapes it. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    /** The Status's ListMeta: a 410 for a compacted continue token offers one at the latest revision. */
    readonly listMeta: { continue?: string } = {},
  ) {
    super(message);
  }

  toStatus(): Record<string, unknown> {
    const s: Record<string, unknown> = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: { ...this.listMeta },
      status: 'Failure',
      message: this.message,
    };
    // Go's metav1.Status omits an empty reason (a webhook's refusal may carry none).
    if (this.reason) s.reason = this.reason;
    if (this.details) s.details = this.details;
    s.code = this.code;
    return s;
  }
}

/**
 * The group and kind an error that names the kind gives: the internal type's. events.k8s.io/v1 Events
 * are stored by the core group's event registry (pkg/registry/core/event), so they are core Events.
 */
function internalKind<T extends Pick<ResourceType, 'group' | 'kind'>>(t: T): Pick<ResourceType, 'group' | 'kind'> {
  return t.group === 'events.k8s.io' && t.kind === 'Event' ? { group: '', kind: 'Event' } : t;
}

function resourceDetails(t: ResourceType, name: string): StatusDetails {
  return t.group ? { name, group: t.group, kind: t.plural } : { name, kind: t.plural };
}

export const errors = {
  notFound: (t: ResourceType, name: string) =>
    new ApiError(404, 'NotFound', `${qualifiedResource(t)} "${name}" not found`, resourceDetails(t, name)),
  pathNotFound: () => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
  alreadyExists: (t: ResourceType, name: string) =>
    new ApiError(409, 'AlreadyExists', `${qualifiedResource(t)} "${name}" already exists`, resourceDetails(t, name)),
  conflict: (t: ResourceType, name: string) =>
    new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(t)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      resourceDetails(t, name),
    ),
  conflictWith: (t: ResourceType, name: string, why: string, causes?: StatusCause[]) =>
    new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(t)} "${name}": ${why}`, {
      ...resourceDetails(t, name),
      ...(causes ? { causes } : {}),
    }),
  /** A DELETE precondition that does not hold: named by kind, as the generic registry's NewConflict does. */
  preconditionFailed: (resource: ResourceType, name: string, why: string) => {
    const t = internalKind(resource);
    return new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedKind(t)} "${name}": ${why}`,
      t.group ? { name, group: t.group, kind: t.kind } : { name, kind: t.kind },
    );
  },
  invalid: (kindOf: Pick<ResourceType, 'group' | 'kind'>, name: string, causes: StatusCause[]) => {
    const t = internalKind(kindOf);
    // The causes are listed as found; the message once per text, as ErrorList.ToAggregate writes it.
    const parts = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)))];
    const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
    const details: StatusDetails = { name, group: t.group, kind: t.kind, causes };
    if (!t.group) delete details.group;
    return new ApiError(422, 'Invalid', `${qualifiedKind(t)} "${name}" is invalid: ${summary}`, details);
  },
  /** 422 for query parameters that contradict each other (apimachinery's ValidateListOptions). */
  invalidListOptions: (field: string, why: string) =>
    new ApiError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${field}: Forbidden: ${why}`, {
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: [{ reason: 'FieldValueForbidden', message: `Forbidden: ${why}`, field }],
    }),
  /** 422 without details: what kube-apiserver answers when a JSON patch cannot be applied. */
  unprocessable: (message: string) => new ApiError(422, 'Invalid', message),
  badRequest: (message: string) => new ApiError(400, 'BadRequest', message),
  entityTooLarge: (limit: number) =>
    new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`),
  methodNotAllowed: (message: string) => new ApiError(405, 'MethodNotAllowed', message, {}),
  notAcceptable: () =>
    new ApiError(
      406,
      'NotAcceptable',
      '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
      {},
    ),
  /** A PATCH whose Content-Type is no patch type at all (the handler's plain 415). */
  unsupportedPatchType: () => new ApiError(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {}),
  /** A POST or PUT body in a format no serializer reads. */
  unsupportedBodyType: () =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    ),
  /** 422 for a request's options (CreateOptions, UpdateOptions, PatchOptions) as ValidateCreateOptions words it. */
  invalidOptions: (kind: string, cause: StatusCause & { field: string }) =>
    new ApiError(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${cause.field}: ${cause.message}`, {
      group: 'meta.k8s.io',
      kind,
      causes: [cause],
    }),
  unsupportedMediaType: () =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    ),
  expired: (message: string, listMeta?: { continue: string }) =>
    new ApiError(410, 'Expired', message, undefined, listMeta),
  forbidden: (t: ResourceType, name: string, why: string) =>
    new ApiError(403, 'Forbidden', `${qualifiedResource(t)} "${name}" is forbidden: ${why}`, resourceDetails(t, name)),
  internal: (message: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${message}`),
};
