import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * The web view acts as the admin, so with the API server's auth on it asks for the admin token
 * too, as Jupyter does: the link `flowops up` prints carries it (`/ui/?token=…`), which is turned
 * into an HttpOnly, SameSite=Strict cookie and dropped from the address; tools may send it as a
 * bearer token. Returns true when it answered (refused, or the redirect that sets the cookie).
 */
export function uiTokenGuard(token: string): (req: IncomingMessage, res: ServerResponse, url: URL) => boolean {
  return (req, res, url) => {
    if (url.pathname !== '/ui' && !url.pathname.startsWith('/ui/')) return false;
    const given = url.searchParams.get('token');
    if (given !== null && same(given, token)) {
      url.searchParams.delete('token');
      res.writeHead(303, { location: `${url.pathname}${url.search}`, 'set-cookie': `${COOKIE}=${token}; Path=/ui; HttpOnly; SameSite=Strict` }).end();
      return true;
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given === null && (same(cookieOf(req), token) || same(bearer, token))) return false;
    res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' }).end('The web view needs the admin token: open the link `flowops up` printed (…/ui/?token=…).\n');
    return true;
  };
}
