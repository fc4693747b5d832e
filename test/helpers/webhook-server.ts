import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureServerPki } from '../../src/apiserver/auth/pki.js';

export interface ReviewRequest {
  uid: string;
  operation: string;
  name?: string;
  namespace?: string;
  dryRun?: boolean;
  object?: { metadata?: { labels?: Record<string, string> } } & Record<string, unknown>;
  oldObject?: Record<string, unknown> | null;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  userInfo?: { username?: string };
  options?: Record<string, unknown>;
}

export interface WebhookServer {
  url: string;
  /** PEM of the CA that signed the server's certificate, base64 as a caBundle wants it. */
  caBundle: string;
  /** Every AdmissionReview request received, by path. */
  received: Array<{ path: string; request: ReviewRequest }>;
  close(): Promise<void>;
}

type Answer = (r: ReviewRequest) => Record<string, unknown> | 'hang' | 'garbage';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * What each path answers, the same on every server (a real kube-apiserver calls the same paths):
 * /allow, /deny (a message), /deny-code (code 422 and a reason), /warn (allowed with warnings),
 * /label (a JSONPatch adding a label), /hang (never answers), /garbage (no JSON).
 */
const ANSWERS: Record<string, Answer> = {
  '/allow': () => ({ allowed: true }),
  '/deny': () => ({ allowed: false, status: { message: 'names starting with bad are refused' } }),
  '/deny-code': () => ({ allowed: false, status: { code: 422, reason: 'Invalid', message: 'not on my watch' } }),
  '/deny-bare': () => ({ allowed: false }),
  '/warn': () => ({ allowed: true, warnings: ['this is a warning from the webhook'] }),
  '/label': (r) => {
    const hasLabels = r.object?.metadata?.labels !== undefined;
    const ops = hasLabels
      ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]
      : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }];
    return { allowed: true, patchType: 'JSONPatch', patch: b64(JSON.stringify(ops)) };
  },
  '/bad-patch': () => ({
    allowed: true,
    patchType: 'JSONPatch',
    patch: b64('[{"op":"replace","path":"/nope/x","value":1}]'),
  }),
  '/hang': () => 'hang',
  '/garbage': () => 'garbage',
};

/** A real HTTPS admission webhook on a free loopback port, its certificate from a CA of its own in `dir`. */
export async function startWebhookServer(dir: string, hosts: string[] = []): Promise<WebhookServer> {
  const pki = await ensureServerPki(dir, ['127.0.0.1', ...hosts]);
  const received: WebhookServer['received'] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer({ key: pki.serverKey, cert: pki.serverCert }, (req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: ReviewRequest };
    received.push({ path, request: review.request });
    const answer = (ANSWERS[path] ?? ANSWERS['/allow']!)(review.request);
    if (answer === 'hang') {
      hanging.add(res);
      return;
    }
    if (answer === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('this is not JSON');
      return;
    }
    const body = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: review.request.uid, ...answer },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    caBundle: b64(pki.caCert),
    received,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
