// A loopback API proxy that lets a script step talk to the cluster as its Flow's identity
// without ever holding FlowOps' credentials: each run gets a random token valid for that run
// only, and the proxy forwards the script's requests through the Flow's KubeClient (which
// impersonates the Flow's ServiceAccount, or is FlowOps' own when the Flow has none). Chosen over
// a TokenRequest token because it needs no rights to mint tokens, works the same on the embedded
// server (which has no TokenRequest) and a real cluster, and ends with the step.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeClient } from '../kube/index.js';

/** Hop-by-hop and identity headers the proxy never forwards. */
const DROPPED = new Set([
  'authorization',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'impersonate-user',
  'impersonate-group',
  'impersonate-uid',
]);

export interface ScriptCredentials {
  /** The proxy's address with the run's token as the first path segment (see forward). */
  server: string;
  token: string;
  /** Ends the token: later requests with it get 401. */
  revoke(): void;
}

class IdentityProxy {
  private listening: Promise<string> | undefined;
  private readonly clients = new Map<string, KubeClient>();

  async issue(kube: KubeClient): Promise<ScriptCredentials> {
    const server = await this.start();
    const token = randomBytes(32).toString('base64url');
    this.clients.set(token, kube);
    return { server: `${server}/${token}`, token, revoke: () => void this.clients.delete(token) };
  }

  private start(): Promise<string> {
    this.listening ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => void this.forward(req, res));
      server.on('error', reject);
      // Loopback only; never keeps the process alive on its own.
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
    return this.listening;
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The token is the first path segment of the server URL, not a bearer header: client-go does
    // not send bearer tokens to a plain-http server, and a loopback proxy needs no TLS.
    const url = new URL(req.url ?? '/', 'http://proxy');
    const token = /^\/([A-Za-z0-9_-]{20,})(\/|$)/.exec(url.pathname)?.[1];
    const kube = token ? this.clients.get(token) : undefined;
    if (!kube) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'Unauthorized: this token is not (or no longer) valid',
          reason: 'Unauthorized',
          code: 401,
        }),
      );
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = url.pathname.slice(token!.length + 1) || '/';
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!DROPPED.has(k) && typeof v === 'string') headers[k] = v;
    try {
      const upstream = await kube.rest.open(req.method ?? 'GET', path, {
        query,
        ...(body.length ? { body } : {}),
        headers,
      });
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(upstream.headers))
        if (v !== undefined && k !== 'connection' && k !== 'keep-alive') out[k] = v;
      res.writeHead(upstream.statusCode ?? 502, out);
      upstream.pipe(res);
      res.on('close', () => upstream.destroy());
    } catch (err) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: `proxy: ${err instanceof Error ? err.message : String(err)}`,
          code: 502,
        }),
      );
    }
  }
}

/** One per process: scripts of every Flow share the listener, each run with its own token. */
export const identityProxy = new IdentityProxy();

/** A kubeconfig for the script: the proxy and the run's token, nothing else. */
export function scriptKubeconfig(c: ScriptCredentials, namespace: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'flowops', cluster: { server: c.server } }],
    users: [{ name: 'flow', user: {} }],
    contexts: [{ name: 'flow', context: { cluster: 'flowops', user: 'flow', namespace } }],
    'current-context': 'flow',
  });
}
