import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ExtraRoute, parseResourcePath, sendJson } from '../apiserver/index.js';
import { authorize, type RequestAttributes } from './authorize.js';
import { verifyToken, type ViewClaims } from './tokens.js';

const HEALTH = /^\/(healthz|livez|readyz)(\/|$)/;

function status(code: number, reason: string, message: string): object {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** The RBAC verb of a resource request, as kube-apiserver derives it. */
function verbOf(req: IncomingMessage, name: string | undefined, url: URL): string {
  switch (req.method) {
    case 'GET':
    case 'HEAD':
      return name
        ? 'get'
        : url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1'
          ? 'watch'
          : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      return (req.method ?? '').toLowerCase();
  }
}

export function requestAttributes(req: IncomingMessage, url: URL): RequestAttributes | undefined {
  const info = parseResourcePath(url.pathname.replace(/\/+$/, ''));
  if (!info) return undefined;
  return {
    verb: verbOf(req, info.name, url),
    apiGroup: info.group,
    resource: info.resource,
    ...(info.subresource ? { subresource: info.subresource } : {}),
    ...(info.namespace !== undefined ? { namespace: info.namespace } : {}),
    ...(info.name ? { name: info.name } : {}),
  };
}

/**
 * Authentication and authorization in front of the view API server (spec §6), mounted as the
 * first route: every request but health checks needs a valid bearer token (401 otherwise);
 * resource requests must fall inside the token's namespaces and rules (403 otherwise);
 * non-resource requests (discovery, version) are allowed to any authenticated user.
 */
export function authRoute(
  certPem: string,
  onAuthenticated?: (claims: ViewClaims, req: IncomingMessage) => void,
): ExtraRoute {
  return async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (HEALTH.test(url.pathname)) return false;
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const claims = m?.[1] === undefined ? undefined : await verifyToken(m[1], certPem).catch(() => undefined);
    if (claims === undefined) {
      sendJson(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
      return true;
    }
    onAuthenticated?.(claims, req);
    const a = requestAttributes(req, url);
    if (!a) return false;
    const denied = authorize(claims, a);
    if (!denied) return false;
    const where = a.namespace !== undefined ? ` in the namespace "${a.namespace}"` : ' at the cluster scope';
    const what = `${a.resource}${a.apiGroup ? `.${a.apiGroup}` : ''}${a.name ? ` "${a.name}"` : ''}`;
    sendJson(
      res,
      403,
      status(
        403,
        'Forbidden',
        `${what} is forbidden: User "${claims.username}" cannot ${a.verb} resource "${a.resource}" in API group "${a.apiGroup}"${where}: ${denied}`,
      ),
    );
    return true;
  };
}
