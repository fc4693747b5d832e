import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AuthGate } from '../auth/index.js';
import type { Discovery } from './discovery.js';
import type { OpenApiV3 } from './openapi.js';
import { OPENAPI_V2_PATHS, serveOpenApiV2 } from './openapi-v2/index.js';
import { parseResourcePath } from './request-info.js';
import { handleResource, type ResourceContext } from './resource-handlers.js';
import { prettyPrint } from './query.js';
import type { RequestCounter } from './request-metrics.js';
import { answerIndented, sendError, sendJson, sendText } from './respond.js';
import { ApiError, errors } from './status.js';

export interface HttpContext extends ResourceContext {
  discovery: Discovery;
  openapi: OpenApiV3;
  versionInfo: object;
  /** Extra handlers mounted beside the Kubernetes API (Git endpoints, webhooks); return true when handled. */
  extraRoutes: Array<(req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean>;
  /** The same, reached only through authentication and RBAC (/metrics). */
  authenticatedRoutes: Array<(req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean>;
  onInternalError: (err: unknown, req: IncomingMessage) => void;
  /** Serve only these API groups ("" is core); the rest answer 404 and leave discovery (a view-only server). */
  serveGroup?: (group: string) => boolean;
  /** Serve HTTPS with this PEM key and certificate instead of plain HTTP; client certificates signed by clientCa authenticate. */
  tls?: { key: string; cert: string; clientCa?: string };
  /** Authentication and authorization; without it every request is allowed. */
  auth?: AuthGate;
  /** apiserver_request_total (request-metrics.ts); absent when the server has no metrics registry. */
  countRequest?: RequestCounter;
}

const HEALTH = new Set(['/healthz', '/livez', '/readyz']);

/**
 * What Go's net/http reads of a request line and headers before it answers 431: kube-apiserver
 * keeps the default MaxHeaderBytes (1 MiB) and Go allows 4 KiB of slack beyond it. Node stops at
 * 16 KiB, which a long label selector in the URL reaches.
 */
export const MAX_HEADER_BYTES = (1 << 20) + 4096;

export function createHttpServer(ctx: HttpContext): Server {
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    route(ctx, req, res).catch((err: unknown) => {
      const apiErr = err instanceof ApiError ? err : stackOverflow(err) ? tooDeepToProcess() : undefined;
      if (!apiErr) ctx.onInternalError(err, req);
      if (res.headersSent) {
        res.end();
        return;
      }
      sendError(res, apiErr ?? errors.internal(err instanceof Error ? err.message : String(err)));
    });
  };
  const tls = ctx.tls;
  // A client certificate is asked for but not required: a request without one may still carry a token.
  const clientCerts = tls?.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false } : {};
  const limits = { maxHeaderSize: MAX_HEADER_BYTES };
  const server: Server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert, ...clientCerts, ...limits }, handler)
    : createServer(limits, handler);
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * One port for HTTPS and plain HTTP, told apart by the first byte (a TLS handshake starts with
 * 0x16): the API on HTTPS, where clients send their credentials, and the same listener's web
 * view, Git and metrics routes still reachable at http:// for browsers and git. Plain-HTTP API
 * requests go through the same authentication (without credentials: 401).
 */
export function sharePort(tlsServer: Server, plain: Server): NetServer {
  const listener = createNetServer((socket: Socket) => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? tlsServer : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  // An http.Server tracks its connections (for closeIdleConnections at shutdown, and its request
  // timeouts) from its 'listening' event on; these two never listen themselves.
  listener.on('listening', () => {
    tlsServer.emit('listening');
    plain.emit('listening');
  });
  return listener;
}

/**
 * /livez fails only when storage cannot recover without a restart; /readyz and /healthz also while
 * writes cannot be stored (kube-apiserver's etcd check), so no client is sent to a server that
 * would refuse its writes. kube-apiserver answers a failed check with 500 and withholds the reason;
 * this server answers 503 (unavailable, retry elsewhere) and gives it, for whoever runs the probe.
 */
function answerHealth(ctx: HttpContext, res: ServerResponse, path: string, url: URL): void {
  const name = path.slice(1).split('/')[0] ?? 'healthz';
  const store = ctx.objects.store;
  const failure = name === 'livez' ? store.liveness() : (store.liveness() ?? store.writeHealth());
  if (failure) return sendText(res, 503, `[+]ping ok\n[-]storage failed: ${failure.message}\n${name} check failed\n`);
  const verbose = `[+]ping ok\n[+]storage ok\n${path.slice(1)} check passed\n`;
  sendText(res, 200, url.searchParams.has('verbose') ? verbose : 'ok');
}

async function route(ctx: HttpContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (prettyPrint(url.searchParams, req.headers['user-agent'])) answerIndented(res);
  for (const extra of ctx.extraRoutes) if (await extra(req, res, url)) return;
  if (ctx.auth && (await ctx.auth.handle(req, res, url))) return;
  for (const extra of ctx.authenticatedRoutes) if (await extra(req, res, url)) return;
  if (path === '/version') return sendJson(res, 200, ctx.versionInfo);
  if (HEALTH.has(path) || [...HEALTH].some((h) => path.startsWith(`${h}/`))) return answerHealth(ctx, res, path, url);
  const serves = ctx.serveGroup ?? (() => true);
  if ((path === '/api' || path.startsWith('/api/')) && !serves('')) throw errors.pathNotFound();
  if (path === '/api') return sendJson(res, 200, ctx.discovery.coreVersions());
  if (path === '/apis') return sendJson(res, 200, servedGroups(ctx.discovery.groupList(), serves));
  if (OPENAPI_V2_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD'))
    return serveOpenApiV2(ctx.registry, req, res, path);
  if (path === '/openapi/v3') return sendJson(res, 200, ctx.openapi.index());
  if (path.startsWith('/openapi/v3/')) {
    const doc = ctx.openapi.document(path.slice('/openapi/v3/'.length));
    if (doc) return sendJson(res, 200, doc);
    throw errors.pathNotFound();
  }
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'apis' && parts[1] !== undefined && !serves(parts[1])) throw errors.pathNotFound();
  if (req.method === 'GET') {
    if (parts[0] === 'api' && parts.length === 2) return sendDoc(res, ctx.discovery.resourceList('', parts[1]!));
    if (parts[0] === 'apis' && parts.length === 2) return sendDoc(res, ctx.discovery.group(parts[1]!));
    if (parts[0] === 'apis' && parts.length === 3)
      return sendDoc(res, ctx.discovery.resourceList(parts[1]!, parts[2]!));
  }
  const info = parseResourcePath(path);
  // A path in no served group is not the API's: Go's mux answers it in plain text.
  if (!info || !ctx.discovery.servesGroup(info.group)) return sendText(res, 404, '404 page not found\n');
  ctx.countRequest?.(req, res, info, url.searchParams);
  return handleResource(ctx, req, res, info, url.searchParams);
}

/**
 * Bodies are refused at decode past the depth every walk is tested at (nesting.ts); should a walk
 * still run out of stack on what a client sent, the client hears so and the server log stays quiet.
 */
function stackOverflow(err: unknown): boolean {
  return err instanceof RangeError && err.message === 'Maximum call stack size exceeded';
}

function tooDeepToProcess(): ApiError {
  return errors.badRequest('the request could not be processed: its body nests too deeply for this server');
}

function servedGroups(list: object, serves: (group: string) => boolean): object {
  const l = list as { groups: Array<{ name: string }> };
  return { ...l, groups: l.groups.filter((g) => serves(g.name)) };
}

function sendDoc(res: ServerResponse, doc: object | undefined): void {
  if (!doc) return sendText(res, 404, '404 page not found\n');
  sendJson(res, 200, doc);
}
