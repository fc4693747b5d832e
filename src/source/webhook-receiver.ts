import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { verifyWebhook } from './webhook-verify.js';

export interface WebhookReceiverOptions {
  kube: KubeClient;
  log: Logger;
  /** Fetch and sync the source now. */
  trigger(namespace: string, name: string): void;
  /** A pull (merge) request of the source was opened or pushed to: preview it now (spec.previews). */
  previewTrigger?(namespace: string, name: string): void;
  /** URL prefix (default "/hooks"). */
  prefix?: string;
}

const MAX_BODY = 5 * 1024 * 1024;

interface SourceSpecView {
  ref?: { branch?: string; tag?: string; commit?: string };
  webhookSecretRef?: { name: string };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify({ message })}\n`);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A push for another branch (or a tag event for a branch source) is acknowledged and ignored. */
function concernsSource(spec: SourceSpecView, ref: string | undefined): boolean {
  if (!ref) return true;
  if (spec.ref?.tag && !spec.ref.branch) return ref.startsWith('refs/tags/');
  return ref === `refs/heads/${spec.ref?.branch ?? 'main'}`;
}

/**
 * `POST /hooks/<namespace>/<name>`: GitHub, GitLab and Gitea push webhooks. The token lives in the
 * Secret named by the FlowSource's spec.webhookSecretRef (key `token`); without one the hook is
 * refused. A good call only triggers a fetch — what is applied still comes from Git.
 */
export function webhookReceiver(
  opts: WebhookReceiverOptions,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> {
  const prefix = opts.prefix ?? '/hooks';
  return async (req, res, url) => {
    if (!url.pathname.startsWith(`${prefix}/`)) return false;
    const m = /^\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]*[a-z0-9])?)$/.exec(
      url.pathname.slice(prefix.length),
    );
    if (!m) {
      reply(res, 404, 'expected /hooks/<namespace>/<name>');
      return true;
    }
    if (req.method !== 'POST') {
      reply(res, 405, 'POST only');
      return true;
    }
    const [namespace, name] = [m[1]!, m[3]!];
    const body = await readBody(req);
    if (!body) {
      reply(res, 413, 'payload too large');
      return true;
    }
    const source = await opts.kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace, name });
    // The same answer for "no such source" and "no token": a caller learns nothing about what exists.
    const spec = (source?.spec ?? {}) as SourceSpecView;
    const secret = spec.webhookSecretRef
      ? await opts.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: spec.webhookSecretRef.name })
      : undefined;
    const encoded = (secret?.data as Record<string, string> | undefined)?.token;
    if (!source || !encoded) {
      reply(res, 401, 'webhook not enabled for this source');
      return true;
    }
    const check = verifyWebhook(req.headers, body, Buffer.from(encoded, 'base64').toString('utf8'));
    if (!check.ok) {
      opts.log.warn({ source: `${namespace}/${name}`, why: check.message }, 'webhook refused');
      reply(res, check.status, check.message);
      return true;
    }
    if (/ping/i.test(check.event)) {
      reply(res, 200, 'pong');
      return true;
    }
    if (/^(pull_request|Merge Request Hook)$/.test(check.event)) {
      if (!opts.previewTrigger) {
        reply(res, 200, 'ignored: pull-request previews are not running here');
        return true;
      }
      opts.previewTrigger(namespace, name);
      reply(res, 202, 'previewing');
      return true;
    }
    if (!concernsSource(spec, check.ref)) {
      reply(res, 200, `ignored: ${check.ref} is not followed by this source`);
      return true;
    }
    opts.log.info(
      { source: `${namespace}/${name}`, provider: check.provider, ref: check.ref },
      'webhook: fetching now',
    );
    opts.trigger(namespace, name);
    reply(res, 202, 'fetching');
    return true;
  };
}
