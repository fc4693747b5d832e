import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { signInPage } from './sign-in-page.js';

const COOKIE = 'flowops-ui';

const same = (given: string | undefined, token: string): boolean => {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

/** Whoever else may sign in: tokens the API server verifies (its ServiceAccount tokens, say). */
export interface OtherUsers {
  /** Checks the token with the API server; the Set-Cookie of the session it opened, or why not. */
  signIn(token: string, req: IncomingMessage): Promise<{ cookie: string } | { refused: string }>;
  /** The request carries a session (or a bearer token) of a signed-in user. */
  signedIn(req: IncomingMessage): Promise<boolean>;
}

/** The admin token on this request: its cookie or its bearer token. */
export function carriesAdminToken(req: IncomingMessage, token: string): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return same(cookieOf(req), token) || same(bearer, token);
}

export const clearedAdminCookie = `${COOKIE}=; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=0`;

/**
 * With the API server's auth on, the web view asks who is looking, as Jupyter does: the link
 * `flowops up` prints carries the admin token (`/ui/?token=…`); any other token the API server
 * verifies (`kubectl create token NAME`) signs in as that user, whose RBAC then decides what the
 * pages show. Either token is turned into an HttpOnly, SameSite=Strict cookie and dropped from
 * the address. A page asked for without one gets a sign-in page (401), never a bare text.
 * Returns true when it answered.
 */
export function uiTokenGuard(
  token: string,
  users?: OtherUsers,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> {
  return async (req, res, url) => {
    if (url.pathname !== '/ui' && !url.pathname.startsWith('/ui/')) return false;
    const given = url.searchParams.get('token');
    if (given !== null) {
      url.searchParams.delete('token');
      const location = `${url.pathname}${url.search}`;
      if (same(given, token)) {
        res
          .writeHead(303, {
            location,
            'set-cookie': `${COOKIE}=${token}; Path=/ui; HttpOnly; SameSite=Strict`,
            'cache-control': 'no-store',
          })
          .end();
        return true;
      }
      const answer = users ? await users.signIn(given.trim(), req) : { refused: 'only the admin token signs in here' };
      if ('cookie' in answer) {
        res
          .writeHead(303, { location, 'set-cookie': [answer.cookie, clearedAdminCookie], 'cache-control': 'no-store' })
          .end();
        return true;
      }
      return refuse(res, url, answer.refused);
    }
    if (carriesAdminToken(req, token)) return false;
    if (users && (await users.signedIn(req))) return false;
    // The pages' API answers JSON (the page then asks for a token); a page load gets the sign-in page.
    if (users && url.pathname.startsWith('/ui/api/')) return false;
    return refuse(res, url, undefined);
  };
}

function refuse(res: ServerResponse, url: URL, reason: string | undefined): true {
  const html = url.pathname.startsWith('/ui/api/') ? undefined : signInPage(reason);
  if (html)
    res
      .writeHead(401, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      })
      .end(html);
  else
    res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' }).end(
      JSON.stringify({
        error: reason ?? 'sign in: open the link `flowops up` printed (…/ui/?token=…), or pass a token',
        signIn: true,
      }),
    );
  return true;
}
