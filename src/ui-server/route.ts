// The web view on the API server's own listener: /ui/ serves the built pages, /ui/api/ the JSON
// they read, the change stream and the Source page's actions. Mounted with ApiServer.addRoute, as /metrics is.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';
import { type KubeClient, KubeApiError } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { ChangeAccess } from './change-access.js';
import { ChangeFeed } from './change-feed.js';
import { UiReads, type CommitFileReader } from './reads.js';
import { actionAllowed, hostAllowed } from './request-guard.js';
import { ActionError, parseSourceAction, runSourceAction } from './source-actions.js';
import { parseRolloutControl, runRolloutControl } from './rollout-actions.js';
import { clearedSessionCookie, SessionError, sessionCookie, UiSessions, type UiUser } from './sessions.js';
import { StaticFiles } from './static-files.js';
import { NamespaceScope } from './namespace-scope.js';
import { BRANCH_TIP, type CommitPreviewer, type CommitReader } from './commit-preview.js';
import { commitHistory } from './summaries.js';
import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/index.js';
import { clearedAdminCookie, type OtherUsers } from './token-guard.js';
import { ChangeStream } from './stream.js';
import { MAX_UPDATE_KEYS } from './watched-objects.js';
import { MAX_ROW_KEYS, rowKeyCount, rowKeysOf } from './overview-rows.js';
import type { CommitDetail, ObjectKey } from './types.js';

export const UI_PREFIX = '/ui/';
const API_PREFIX = '/ui/api/';

/** ui/dist beside src/ (and beside dist/ once compiled: both are two levels below the root). */
export const DEFAULT_UI_DIST = join(PACKAGE_ROOT, 'ui', 'dist');

export interface UiRouteOptions {
  kube: KubeClient;
  log: Logger;
  distDir?: string;
  /** The listener is on loopback: answer only loopback Host names (DNS rebinding). */
  loopbackOnly?: boolean;
  /** Reads the file a Flow was applied from in its commit (the Flow page shows it with line numbers). */
  commitFile?: CommitFileReader;
  /** The Source page's "sync now"; without it that action answers 501. */
  syncNow?: (namespace: string, name: string) => void;
  /**
   * Who reads: `single-user` (`flowops up` on loopback: everything with `kube`, the admin) or
   * `per-user` (`flowops run`: each person signs in with their own Kubernetes bearer token, and
   * every read and action is made with it; `kube` only watches for changes and finds kinds).
   */
  access?: 'single-user' | 'per-user';
  /**
   * `flowops up` with auth: a request that carries its admin token reads as `kube`; anyone else
   * signs in (per-user) with a token the API server verifies.
   */
  admin?: (req: IncomingMessage) => boolean;
  /** What pinning a commit would change (`flowops up`: from the sources' clones); without it no preview. */
  previewCommit?: CommitPreviewer;
  /** A commit's page: its diff against its parent (`flowops up`: from the sources' clones). */
  readCommit?: CommitReader;
}

export interface UiRoute {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** Per-user: signs a token in as a session (for a guard in front, `?token=` in a link). */
  users?: OtherUsers;
  /** Ends open streams and watches; call before closing the listener. */
  stop(): Promise<void>;
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
};

export function uiRoute(opts: UiRouteOptions): UiRoute {
  const feed = new ChangeFeed(opts.kube, opts.log.child({ part: 'ui' }));
  // The shared reader has the feed's identity, so it may take the Events the feed already watches;
  // a signed-in user's reader lists them with their own token.
  const reads = new UiReads(opts.kube, opts.commitFile, () => feed.events());
  const stream = new ChangeStream(feed);
  const files = new StaticFiles(opts.distDir ?? DEFAULT_UI_DIST);
  const sessions = opts.access === 'per-user' ? new UiSessions(opts.kube) : undefined;
  const changeAccess = sessions ? new ChangeAccess(opts.kube) : undefined;
  let started = false;
  // Every namespace, read with the web view's own identity, for users who may list only in some.
  const allNamespaces = async (): Promise<string[]> =>
    (await opts.kube.list('v1', 'Namespace')).items.map((n) => n.metadata.name ?? '').filter(Boolean);

  const answer = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    if (!hostAllowed(req, opts.loopbackOnly ?? false))
      return sendJson(res, 421, { error: 'the web view answers only loopback host names' });
    let parts: string[];
    let rel: string;
    try {
      parts = url.pathname.startsWith(API_PREFIX)
        ? url.pathname.slice(API_PREFIX.length).split('/').filter(Boolean).map(decodeURIComponent)
        : [];
      rel = decodeURIComponent(url.pathname.slice(UI_PREFIX.length));
    } catch {
      return sendJson(res, 400, { error: 'malformed percent-encoding in the path' });
    }
    if (parts[0] === 'session' && parts.length === 1) return answerSession(req, res);
    // Who asks: the admin on `up`; on `run`, the signed-in user (or none yet: the page asks for a token).
    let user: UiUser | undefined;
    if (sessions && url.pathname.startsWith(API_PREFIX) && !opts.admin?.(req)) {
      user = await sessions.userOf(req);
      if (!user)
        return sendJson(res, 401, {
          error: 'sign in with a Kubernetes bearer token (kubectl create token …)',
          signIn: true,
        });
    }
    const kube = user?.kube ?? opts.kube;
    if (req.method === 'POST' && parts[0] === 'sources' && parts[3] === 'actions' && parts.length === 4)
      return answerAction(req, res, kube, parts[1]!, parts[2]!);
    if (req.method === 'POST' && parts[0] === 'flows' && parts[3] === 'rollout' && parts.length === 4) {
      return answerRolloutControl(req, res, kube, parts[1] ?? '', parts[2] ?? '');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const where = '/ui/api/sources/<namespace>/<name>/actions and /ui/api/flows/<namespace>/<name>/rollout';
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' });
      res.end(`only GET and HEAD here; actions are POSTs to ${where}\n`);
      return;
    }
    if (!url.pathname.startsWith(API_PREFIX)) {
      files.serve(rel, res, req.method === 'HEAD');
      return;
    }
    // The watches start with the first page that asks, so a `flowops up` nobody looks at pays nothing.
    if (!started) {
      started = true;
      feed.start();
    }
    if (parts[0] === 'stream' && parts.length === 1) {
      const signedIn = user;
      return stream.serve(
        req,
        res,
        signedIn && changeAccess ? (changes) => changeAccess.visible(signedIn, changes) : undefined,
      );
    }
    if (parts[0] === 'sources' && parts[3] === 'commits' && parts.length === 5)
      return answerCommit(res, kube, parts[1]!, parts[2]!, parts[4]!);
    if (parts[0] === 'sources' && parts[3] === 'preview' && parts.length === 4)
      return answerPreview(res, kube, parts[1]!, parts[2]!, url.searchParams.get('commit') ?? '');
    if (parts[0] === 'overview' && parts[1] === 'rows' && rowKeyCount(rowKeysOf(url.searchParams)) > MAX_ROW_KEYS) {
      return sendJson(res, 400, {
        error: `at most ${MAX_ROW_KEYS} source, flow, operator and event parameters; read the whole overview instead`,
      });
    }
    if (parts[0] === 'flows' && parts[3] === 'objects' && url.searchParams.getAll('key').length > MAX_UPDATE_KEYS) {
      return sendJson(res, 400, { error: `at most ${MAX_UPDATE_KEYS} key parameters; read the whole Flow instead` });
    }
    if (parts[0] === 'object') {
      const k = objectKeyOf(url.searchParams);
      if (k) feed.follow(k.apiVersion, k.kind);
    }
    try {
      const userReads = user
        ? new UiReads(user.kube, opts.commitFile, undefined, new NamespaceScope(user.kube, allNamespaces))
        : undefined;
      const answered = await apiAnswer(userReads ?? reads, parts, url.searchParams);
      // Commit hashes link to commit pages only where this server can make them (it has clones).
      const withCommits = (parts[0] === 'sources' || parts[0] === 'object') && answered && opts.readCommit;
      const body = withCommits ? { ...answered, commitPages: true } : answered;
      if (body === undefined) return sendJson(res, 404, { error: `not found: ${url.pathname}` });
      sendJson(res, 200, body);
    } catch (err) {
      // The API server's refusal, as it said it: the page shows the message instead of data.
      if (err instanceof KubeApiError && (err.statusCode === 401 || err.statusCode === 403))
        return sendJson(res, err.statusCode, {
          error: err.message,
          ...(err.statusCode === 401 ? { signIn: true } : {}),
        });
      throw err;
    }
  };

  /** GET: who is signed in; POST {token}: sign in; DELETE: sign out. `up` has nobody to sign in. */
  const answerSession = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!sessions)
      return sendJson(
        res,
        req.method === 'GET' ? 200 : 404,
        req.method === 'GET'
          ? { user: 'admin', signInNeeded: false }
          : { error: "this web view has no sign-in: it runs as FlowOps' admin on loopback" },
      );
    if (req.method === 'GET' && opts.admin?.(req)) return sendJson(res, 200, { user: 'admin', signInNeeded: true });
    if (req.method === 'GET') {
      const user = await sessions.userOf(req).catch(() => undefined);
      return user
        ? sendJson(res, 200, { user: user.username, signInNeeded: true })
        : sendJson(res, 401, { error: 'not signed in', signIn: true });
    }
    const refused = actionAllowed(req);
    if (refused) return sendJson(res, 403, { error: refused });
    if (req.method === 'DELETE') {
      sessions.signOut(req);
      res.setHeader('Set-Cookie', [clearedSessionCookie(), clearedAdminCookie]);
      return sendJson(res, 200, { signedOut: true });
    }
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'GET, POST or DELETE' });
    try {
      const body = (await readJson(req)) as { token?: unknown };
      if (typeof body?.token !== 'string')
        return sendJson(res, 400, { error: 'expected {"token": "<a Kubernetes bearer token>"}' });
      const { id, user } = await sessions.signIn(body.token.trim());
      opts.log.info({ user: user.username }, 'web view sign-in');
      res.setHeader('Set-Cookie', sessionCookie(id, isSecure(req)));
      sendJson(res, 200, { user: user.username, signInNeeded: true });
    } catch (err) {
      if (err instanceof SessionError || err instanceof ActionError)
        return sendJson(res, err.statusCode, { error: err.message });
      throw err;
    }
  };

  /** The dry run of a pin, made with the reader's own rights (RBAC may refuse it: said as such). */
  const answerPreview = async (
    res: ServerResponse,
    kube: KubeClient,
    namespace: string,
    name: string,
    commit: string,
  ): Promise<void> => {
    if (!/^[0-9a-f]{40}$/.test(commit) && commit !== BRANCH_TIP)
      return sendJson(res, 400, { error: `expected ?commit=<40 hex digits> or ?commit=${BRANCH_TIP}` });
    if (!opts.previewCommit)
      return sendJson(res, 501, { error: 'this web view cannot preview commits (it has no clone of the source)' });
    const source = await kube.get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name });
    if (!source) return sendJson(res, 404, { error: `FlowSource ${namespace}/${name} not found` });
    sendJson(res, 200, await opts.previewCommit(kube, source, commit));
  };

  const answerCommit = async (
    res: ServerResponse,
    kube: KubeClient,
    namespace: string,
    name: string,
    commit: string,
  ): Promise<void> => {
    if (!/^[0-9a-f]{40}$/.test(commit)) return sendJson(res, 400, { error: 'expected a commit of 40 hex digits' });
    if (!opts.readCommit || !opts.previewCommit)
      return sendJson(res, 501, { error: 'this web view cannot show commits (it has no clone of the source)' });
    const source = await kube.get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name });
    if (!source) return sendJson(res, 404, { error: `FlowSource ${namespace}/${name} not found` });
    const [diff, live] = await Promise.all([opts.readCommit(source, commit), opts.previewCommit(kube, source, commit)]);
    if (!diff)
      return sendJson(res, 404, {
        error: `commit ${commit.slice(0, 12)} is not in the clone of FlowSource ${namespace}/${name}`,
      });
    const entry = commitHistory(source).find((c) => c.commit === commit);
    const body: CommitDetail = { source: { namespace, name }, commit, ...diff, live, ...(entry ? { entry } : {}) };
    sendJson(res, 200, body);
  };

  const answerAction = async (
    req: IncomingMessage,
    res: ServerResponse,
    kube: KubeClient,
    namespace: string,
    name: string,
  ): Promise<void> => {
    const refused = actionAllowed(req);
    if (refused) return sendJson(res, 403, { error: refused });
    try {
      const action = parseSourceAction(await readJson(req));
      const result = await runSourceAction(
        { kube, ...(opts.syncNow ? { syncNow: opts.syncNow } : {}) },
        namespace,
        name,
        action,
      );
      opts.log.info({ source: `${namespace}/${name}`, action: action.action }, 'web view action');
      sendJson(res, 200, result);
    } catch (err) {
      if (!(err instanceof ActionError)) throw err;
      sendJson(res, err.statusCode, { error: err.message });
    }
  };

  /** The Flow page's Promote, Pause, Resume and Abort: `flowops rollout`'s controls with the reader's rights. */
  const answerRolloutControl = async (
    req: IncomingMessage,
    res: ServerResponse,
    kube: KubeClient,
    namespace: string,
    name: string,
  ): Promise<void> => {
    const refused = actionAllowed(req);
    if (refused) return sendJson(res, 403, { error: refused });
    try {
      const control = parseRolloutControl(await readJson(req));
      const result = await runRolloutControl(kube, namespace, name, control);
      opts.log.info({ flow: `${namespace}/${name}`, action: control }, 'web view rollout control');
      sendJson(res, 200, result);
    } catch (err) {
      if (!(err instanceof ActionError)) throw err;
      sendJson(res, err.statusCode, { error: err.message });
    }
  };

  const users: OtherUsers | undefined = sessions
    ? {
        async signIn(token, req) {
          try {
            const { id, user } = await sessions.signIn(token);
            opts.log.info({ user: user.username }, 'web view sign-in');
            return { cookie: sessionCookie(id, isSecure(req)) };
          } catch (err) {
            if (err instanceof SessionError) return { refused: err.message };
            throw err;
          }
        },
        signedIn: async (req) => (await sessions.userOf(req).catch(() => undefined)) !== undefined,
      }
    : undefined;

  return {
    ...(users ? { users } : {}),
    async handle(req, res, url) {
      if (url.pathname === '/ui') {
        res.writeHead(308, { Location: UI_PREFIX }).end();
        return true;
      }
      if (!url.pathname.startsWith(UI_PREFIX)) return false;
      await answer(req, res, url).catch((err: unknown) => {
        opts.log.warn({ err, url: url.pathname }, 'web view request failed');
        if (!res.headersSent) sendJson(res, 502, { error: err instanceof Error ? err.message : String(err) });
        else res.end();
      });
      return true;
    },
    async stop() {
      stream.closeAll();
      await feed.stop();
    },
  };
}

const isSecure = (req: IncomingMessage): boolean =>
  (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';

function apiAnswer(reads: UiReads, parts: string[], query: URLSearchParams): Promise<unknown> {
  const [what, namespace, name] = parts;
  if (what === 'overview' && parts.length === 1) return reads.overview();
  if (what === 'overview' && parts.length === 2 && parts[1] === 'rows') return reads.overviewRows(rowKeysOf(query));
  if (what === 'sources' && parts.length === 3) return reads.source(namespace!, name!);
  if (what === 'flows' && parts.length === 3) return reads.flow(namespace!, name!, query.get('commit') ?? undefined);
  if (what === 'flows' && parts.length === 4 && parts[3] === 'head') return reads.flowHead(namespace!, name!);
  if (what === 'flows' && parts.length === 4 && parts[3] === 'objects') {
    return reads.flowObjects(namespace!, name!, query.getAll('key'));
  }
  if (what === 'sources' && parts.length === 4 && parts[3] === 'previews') return reads.previews(namespace!, name!);
  if (what === 'sources' && parts.length === 5 && parts[3] === 'previews')
    return reads.preview(namespace!, name!, Number(parts[4]));
  if (what === 'operators' && parts.length === 2) return reads.operator(parts[1]!);
  if (what === 'object' && parts.length === 1) {
    const key = objectKeyOf(query);
    return key ? reads.object(key) : Promise.resolve(undefined);
  }
  return Promise.resolve(undefined);
}

function objectKeyOf(q: URLSearchParams): ObjectKey | undefined {
  const apiVersion = q.get('apiVersion');
  const kind = q.get('kind');
  const name = q.get('name');
  const namespace = q.get('namespace');
  if (!apiVersion || !kind || !name) return undefined;
  return { apiVersion, kind, name, ...(namespace ? { namespace } : {}) };
}

const MAX_BODY = 16 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of req) {
    body += (chunk as Buffer).toString('utf8');
    if (body.length > MAX_BODY) throw new ActionError(413, 'request body too large');
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new ActionError(400, 'expected a JSON body');
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
    .end(JSON.stringify(body));
}
