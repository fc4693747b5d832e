// Who is looking, where the web view serves more than one person (`flowops run`): every read and
// action is made with the user's own Kubernetes bearer token, so RBAC shows them exactly what
// `kubectl get` would. The token is pasted once (POST /ui/api/session), checked by the API server
// itself (SelfSubjectReview: who does it authenticate as?), and kept here, in memory only, behind
// a random session id in an HttpOnly, SameSite=Strict cookie — an EventSource cannot send an
// Authorization header, and a token in localStorage is one script injection away from leaking.
// A request may also carry `Authorization: Bearer …` itself (curl, a port-forward with a token).

import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { IncomingMessage } from 'node:http';
import { KubeApiError } from '../kube/rest.js';
import type { KubeClient } from '../kube/index.js';

export const SESSION_COOKIE = 'flowops-ui-session';
/** As long as a working day; the token's own expiry still applies at the API server. */
const SESSION_TTL_MS = 8 * 60 * 60 * 1000;
const MAX_SESSIONS = 1000;

export interface UiUser {
  /** What the API server says the token is (SelfSubjectReview's userInfo.username). */
  username: string;
  kube: KubeClient;
}

export class SessionError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export class UiSessions {
  /** Each session lives SESSION_TTL_MS from sign-in; past MAX_SESSIONS the least recently used goes. */
  private readonly sessions = new LRUCache<string, UiUser>({ max: MAX_SESSIONS, ttl: SESSION_TTL_MS });

  /** `cluster` gives the server and CA; its own credentials are never used for a user's request. */
  constructor(private readonly cluster: KubeClient) {}

  /** Checks the token with the API server and opens a session; returns its id and the user. */
  async signIn(token: string): Promise<{ id: string; user: UiUser }> {
    const user = await this.authenticate(token);
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, user);
    return { id, user };
  }

  signOut(req: IncomingMessage): void {
    const id = sessionIdOf(req);
    if (id) this.sessions.delete(id);
  }

  /** The user of a request: its bearer token, else its session cookie; undefined when neither. */
  async userOf(req: IncomingMessage): Promise<UiUser | undefined> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (bearer) return this.authenticate(bearer);
    const id = sessionIdOf(req);
    return id ? this.sessions.get(id) : undefined;
  }

  private async authenticate(token: string): Promise<UiUser> {
    if (!/^[\x21-\x7e]{1,8192}$/.test(token))
      throw new SessionError(400, 'a token is one line of printable characters');
    const kube = this.cluster.withBearerToken(token);
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
    try {
      const answer = await kube.rest.json<{ status?: { userInfo?: { username?: string } } }>(
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        { body: review },
      );
      return { username: answer.status?.userInfo?.username ?? 'unknown', kube };
    } catch (err) {
      if (err instanceof KubeApiError && err.statusCode === 401)
        throw new SessionError(401, 'the API server did not accept this token');
      // A server without SelfSubjectReview (authentication.k8s.io v1 is there from 1.28 on): any
      // authenticated read says whether the token works.
      if (err instanceof KubeApiError && err.statusCode === 404) {
        const res = await kube.rest.call('GET', '/api');
        if (res.status === 401) throw new SessionError(401, 'the API server did not accept this token');
        return { username: 'unknown', kube };
      }
      throw err;
    }
  }
}

function sessionIdOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}

/** The cookie that holds a session id: the pages' own path only, never sent cross-site, unreadable by scripts. */
export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/ui/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_MS / 1000}${secure ? '; Secure' : ''}`;
}

export const clearedSessionCookie = (): string => `${SESSION_COOKIE}=; Path=/ui/; HttpOnly; SameSite=Strict; Max-Age=0`;
