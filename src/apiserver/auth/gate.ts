import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeObject, readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import { errors } from '../http/status.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { requestAttributes, type Authorizable } from './attributes.js';
import { forbidden, unauthorized } from './auth-errors.js';
import { authenticate, type Authenticators } from './authenticator.js';
import { impersonate } from './impersonation.js';
import type { Decision, RbacAuthorizer } from './rbac/authorizer.js';
import { isReview, reviewHandlers } from './reviews.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';
import { requestToken } from './token-request.js';
import type { UserInfo } from './user-info.js';

/** Who each request in flight is, for the handlers after the gate (RBAC escalation checks). */
const requestUsers = new WeakMap<IncomingMessage, UserInfo>();
export const userOf = (req: IncomingMessage): UserInfo | undefined => requestUsers.get(req);

/**
 * The one place the API server's handler chain asks who a request is and whether it may do what
 * it asks: authentication (client certificate, bearer token, anonymous), impersonation, RBAC;
 * then it answers the requests that are its own (reviews, TokenRequest) and lets the rest through.
 */
export class AuthGate {
  private readonly reviews;
  private readonly authorize = (a: Authorizable): Decision => this.authorizer.authorize(a);

  constructor(
    private readonly authenticators: Authenticators,
    readonly authorizer: RbacAuthorizer,
    readonly tokens: ServiceAccountTokens,
    private readonly registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {
    this.reviews = reviewHandlers({ authorizer, tokens });
  }

  private require(a: Authorizable): void {
    const d = this.authorize(a);
    if (!d.allowed) throw forbidden(a, d.reason);
  }

  private exists(r: NonNullable<Authorizable['resource']>): boolean {
    const t = this.registry.lookup(r.group, r.version, r.resource);
    // An unknown resource is the handler's 404 to give.
    return !t || this.objects.getStored(t, t.namespaced ? r.namespace : undefined, r.name) !== undefined;
  }

  /** True when the request was answered here (refused, or one of the gate's own resources). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const requester = await authenticate(req, url.pathname, this.authenticators);
    if (!requester) throw unauthorized();
    const user = impersonate(req, requester, this.authorize);
    const a: Authorizable = { ...requestAttributes(req.method ?? 'GET', url), user };
    this.require(a);
    requestUsers.set(req, user);
    const r = a.resource;
    if (!r) return false;
    if (a.verb === 'patch' && !r.subresource && r.name && !this.exists(r)) {
      // A patch that creates (server-side apply of a new object) needs create as well, as
      // kube-apiserver's patch handler checks it before creating.
      this.require({ ...a, verb: 'create' });
    }
    if (r.group === '' && r.resource === 'serviceaccounts' && r.subresource === 'token') {
      if (a.verb !== 'create')
        throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
      const saType = this.registry.lookup('', 'v1', 'serviceaccounts')!;
      const body = decodeObject(req, await readBody(req), 'TokenRequest');
      sendJson(res, 201, await requestToken(this.tokens, this.objects, saType, r.namespace, r.name, body));
      return true;
    }
    if (!isReview(a, this.reviews)) return false;
    if (a.verb !== 'create' || r.name)
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const body = decodeObject(req, await readBody(req), reviewKind(r.resource));
    sendJson(res, 201, await this.reviews.get(`${r.group}/${r.resource}`)!(body, user, r.namespace));
    return true;
  }
}

/** The kind a review resource's body is (`selfsubjectaccessreviews` → SelfSubjectAccessReview), for decode errors. */
const REVIEW_KINDS: Record<string, string> = {
  selfsubjectaccessreviews: 'SelfSubjectAccessReview',
  selfsubjectrulesreviews: 'SelfSubjectRulesReview',
  subjectaccessreviews: 'SubjectAccessReview',
  localsubjectaccessreviews: 'LocalSubjectAccessReview',
  selfsubjectreviews: 'SelfSubjectReview',
  tokenreviews: 'TokenReview',
};
const reviewKind = (resource: string): string => REVIEW_KINDS[resource] ?? resource;
