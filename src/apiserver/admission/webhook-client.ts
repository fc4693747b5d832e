import { request as httpsRequest } from 'node:https';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * POSTs an AdmissionReview the way kube-apiserver's webhook client does
 * (staging/src/k8s.io/apiserver/pkg/util/webhook/client.go and the validating and mutating
 * dispatchers' callHook): `?timeout=Ns` on the URL, the caBundle as the only roots when given,
 * the deadline of timeoutSeconds; failures worded as Go's net/http, crypto/x509 and client-go word
 * them, since the webhook's caller sees them verbatim in the Status message.
 */
export interface WebhookTarget {
  /** The URL shown in errors (for a service: https://name.namespace.svc:port/path). */
  url: URL;
  /** Where to connect, when it is not the URL's host (a Service resolved to its endpoints). */
  connectHost?: string;
  connectPort?: number;
  /** PEM roots; system roots when absent. */
  ca?: string;
  timeoutSeconds: number;
}

/** A failure to get an answer (ErrCallingWebhook's reason). */
export class WebhookCallError extends Error {
  readonly code = 'WebhookCallFailed' as const;
}

const MAX_RESPONSE = 3 * 1024 * 1024;
const NO_KIND = "failed to call webhook: couldn't get version/kind; json parse error: ";

export async function postReview(target: WebhookTarget, body: string): Promise<unknown> {
  const url = new URL(target.url);
  url.searchParams.set('timeout', `${target.timeoutSeconds}s`);
  const shown = `Post "${url.toString()}"`;
  const raw = await send(target, url, body).catch(async (e: unknown) => {
    throw new WebhookCallError(`failed to call webhook: ${shown}: ${await describe(e, target, url)}`);
  });
  return decode(raw);
}

class Deadline extends Error {}

const UNKNOWN_AUTHORITY = 'tls: failed to verify certificate: x509: certificate signed by unknown authority';

function send(target: WebhookTarget, url: URL, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const host = target.connectHost ?? url.hostname.replace(/^\[|\]$/g, '');
    const secure = url.protocol === 'https:';
    const servername = url.hostname;
    const opts = {
      host,
      port: target.connectPort ?? (url.port ? Number(url.port) : secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, */*',
        'content-length': Buffer.byteLength(body),
      },
      ...(secure ? { servername: isIP(servername) ? undefined : servername, rejectUnauthorized: true } : {}),
      ...(secure && target.ca ? { ca: target.ca } : {}),
    };
    const req = (secure ? httpsRequest : httpRequest)(opts, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE) req.destroy(new Error('the webhook response is larger than 3 MiB'));
        else chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Deadline()), target.timeoutSeconds * 1000);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

/** Go's words for what went wrong on the wire. */
async function describe(e: unknown, target: WebhookTarget, url: URL): Promise<string> {
  if (e instanceof Deadline) return 'context deadline exceeded';
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${err.address ?? url.hostname}:${err.port ?? url.port}: connect: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ECONNRESET':
      return 'EOF';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${await altNameText(target, url)}`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
      return `${UNKNOWN_AUTHORITY}${await candidateText(target, url)}`;
    case 'EPROTO':
      return /wrong version number|packet length too long/i.test(err.message)
        ? 'http: server gave HTTP response to HTTPS client'
        : err.message;
    default:
      return err.message;
  }
}

/** The server's certificate, read on a connection that sends nothing (to explain a refusal). */
function peerCertificate(target: WebhookTarget, url: URL): Promise<PeerCertificate | undefined> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: target.connectHost ?? url.hostname,
      port: target.connectPort ?? Number(url.port || 443),
      rejectUnauthorized: false,
      ...(isIP(url.hostname) ? {} : { servername: url.hostname }),
    });
    const done = (c: PeerCertificate | undefined) => {
      socket.destroy();
      resolve(c);
    };
    socket.setTimeout(2000, () => done(undefined));
    socket.on('secureConnect', () => done(socket.getPeerCertificate()));
    socket.on('error', () => done(undefined));
  });
}

/**
 * crypto/x509 adds why a root of the same name did not do: the signature check failed
 * (`x509: ECDSA verification failure`, `crypto/rsa: verification error`).
 */
async function candidateText(target: WebhookTarget, url: URL): Promise<string> {
  const peer = await peerCertificate(target, url);
  const issuer = peer?.issuer?.CN;
  if (!issuer || !target.ca) return '';
  for (const pem of target.ca.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    const ca = new X509Certificate(pem);
    if (ca.subject.split('\n').includes(`CN=${issuer}`)) {
      const ec = ca.publicKey.asymmetricKeyType === 'ec';
      const why = ec ? 'x509: ECDSA verification failure' : 'crypto/rsa: verification error';
      return ` (possibly because of "${why}" while trying to verify candidate authority certificate "${issuer}")`;
    }
  }
  return '';
}

async function altNameText(target: WebhookTarget, url: URL): Promise<string> {
  const peer = await peerCertificate(target, url);
  const sans = (peer?.subjectaltname ?? '').split(', ');
  const names = sans.map((s) => s.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return `certificate is valid for ${names.filter((n) => isIP(n)).join(', ')}, not ${host}`;
  return `certificate is valid for ${names.filter((n) => !isIP(n)).join(', ')}, not ${host}`;
}

/** client-go's decoding of the answer: a body that is not an object is refused in Go's words. */
function decode(raw: { status: number; text: string }): unknown {
  if (raw.status < 200 || raw.status > 299) {
    throw new WebhookCallError(
      `failed to call webhook: an error on the server (${JSON.stringify(raw.text.slice(0, 256))}) ` +
        'has prevented the request from succeeding',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.text);
  } catch {
    // A YAML-ish scalar: client-go's sniffing reads it as a string before it looks for apiVersion and kind.
    parsed = raw.text.trim().startsWith('{') || raw.text.trim().startsWith('[') ? undefined : raw.text;
    if (parsed === undefined) {
      throw new WebhookCallError(`${NO_KIND}unexpected end of JSON input`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const goType = Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed;
    throw new WebhookCallError(
      `${NO_KIND}json: cannot unmarshal ` +
        `${goType} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; ` +
        'Kind string "json:\\"kind,omitempty\\"" }',
    );
  }
  return parsed;
}
