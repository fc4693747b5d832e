// The webhook's HTTPS listener: POST /validate with an AdmissionReview v1. The serving certificate
// is swapped in place (setSecureContext): connections already open keep the one they began with,
// new ones get the new one, so a rotation refuses no request.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log/index.js';
import type { KeyPairPem } from './certs.js';
import { WebhookError } from './errors.js';
import { answerAdmission, parseAdmissionReview } from './review.js';
import type { SchemaSource } from './cluster-schemas.js';

export const VALIDATE_PATH = '/validate';
/** kube-apiserver sends at most its own request limit (3 MiB) plus the review's envelope. */
const MAX_BODY = 8 * 1024 * 1024;

export interface WebhookServer {
  /** host:port it listens on (port 0 resolved). */
  address: string;
  /** Serves `pair` to every connection from now on. */
  useCertificate(pair: KeyPairPem): void;
  close(): Promise<void>;
}

export interface WebhookServerOptions {
  host: string;
  port: number;
  certificate: KeyPairPem;
  schemas: SchemaSource;
  log: Logger;
}

function send(res: ServerResponse, code: number, body: string, type = 'application/json'): void {
  res.writeHead(code, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(req: IncomingMessage, res: ServerResponse, opts: WebhookServerOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://webhook');
  if (url.pathname === '/healthz') return send(res, 200, 'ok', 'text/plain');
  if (url.pathname !== VALIDATE_PATH) return send(res, 404, `not found: ${url.pathname}`, 'text/plain');
  if (req.method !== 'POST') return send(res, 405, 'expected POST', 'text/plain');
  const text = await readBody(req);
  if (text === undefined) return send(res, 413, `request body over ${MAX_BODY} bytes`, 'text/plain');
  let request: ReturnType<typeof parseAdmissionReview>;
  try {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new WebhookError('BadReview', 'malformed AdmissionReview: the body is not JSON');
    }
    request = parseAdmissionReview(body);
  } catch (e) {
    if (e instanceof WebhookError) return send(res, 400, e.message, 'text/plain');
    throw e;
  }
  const answer = answerAdmission(request, await opts.schemas.registry());
  if (!answer.response.allowed) {
    opts.log.info(
      { kind: request.kind.kind, uid: request.uid, message: answer.response.status?.message },
      'admission refused',
    );
  }
  send(res, 200, JSON.stringify(answer));
}

export async function startWebhookServer(opts: WebhookServerOptions): Promise<WebhookServer> {
  const server: Server = createServer({ ...opts.certificate, minVersion: 'TLSv1.2' }, (req, res) => {
    handle(req, res, opts).catch((e: unknown) => {
      opts.log.error({ err: e }, 'admission review failed');
      // An answer the API server reads as a failed call: its failurePolicy decides.
      if (!res.headersSent) send(res, 500, 'internal error checking the object', 'text/plain');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) =>
      reject(new WebhookError('ListenFailed', `webhook: cannot listen on ${opts.host}:${opts.port}: ${e.message}`)),
    );
    server.listen(opts.port, opts.host, resolve);
  });
  const a = server.address() as AddressInfo;
  return {
    address: `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`,
    useCertificate: (pair) => server.setSecureContext({ ...pair, minVersion: 'TLSv1.2' }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
