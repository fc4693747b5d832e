import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export type WebhookProvider = 'github' | 'gitea' | 'gitlab';

export type WebhookCheck =
  | { ok: true; provider: WebhookProvider; event: string; ref?: string | undefined }
  | { ok: false; status: 401 | 400; message: string };

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const hmacHex = (token: string, body: Buffer): string => createHmac('sha256', token).update(body).digest('hex');

/**
 * Checks a push webhook from GitHub (X-Hub-Signature-256: sha256=<hmac>), Gitea (X-Gitea-Signature:
 * <hmac>) or GitLab (X-Gitlab-Token: <token>) against the source's token, comparing in constant time.
 */
export function verifyWebhook(headers: IncomingHttpHeaders, body: Buffer, token: string): WebhookCheck {
  let provider: WebhookProvider;
  let event: string;
  const github = header(headers, 'x-hub-signature-256');
  const gitea = header(headers, 'x-gitea-signature');
  const gitlab = header(headers, 'x-gitlab-token');
  if (gitea !== undefined) {
    provider = 'gitea';
    event = header(headers, 'x-gitea-event') ?? 'push';
    if (!sameText(gitea, hmacHex(token, body))) return { ok: false, status: 401, message: 'signature does not match' };
  } else if (github !== undefined) {
    provider = 'github';
    event = header(headers, 'x-github-event') ?? 'push';
    if (!sameText(github, `sha256=${hmacHex(token, body)}`))
      return { ok: false, status: 401, message: 'signature does not match' };
  } else if (gitlab !== undefined) {
    provider = 'gitlab';
    event = header(headers, 'x-gitlab-event') ?? 'Push Hook';
    if (!sameText(gitlab, token)) return { ok: false, status: 401, message: 'token does not match' };
  } else {
    return { ok: false, status: 401, message: 'no X-Hub-Signature-256, X-Gitea-Signature or X-Gitlab-Token header' };
  }
  let ref: string | undefined;
  try {
    const payload = JSON.parse(body.toString('utf8') || '{}') as { ref?: unknown };
    if (typeof payload.ref === 'string') ref = payload.ref;
  } catch {
    return { ok: false, status: 400, message: 'payload is not JSON' };
  }
  return { ok: true, provider, event, ref };
}
