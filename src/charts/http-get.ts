import { Agent, fetch, type Dispatcher, type Response } from 'undici';
import { ChartError } from './errors.js';

export interface BasicCredentials {
  username: string;
  password: string;
}

export interface HttpGetOptions {
  /** Sent only to `origin` (the repository's): a chart URL on another host gets no credentials, as Helm does. */
  credentials?: { origin: string; basic: BasicCredentials } | undefined;
  /** PEM CA bundle the server's certificate is checked against. */
  ca?: string | undefined;
  signal?: AbortSignal | undefined;
  limit: number;
  /** Names what is fetched in errors ("index.yaml of https://charts.example.com"). */
  what: string;
}

const agents = new Map<string, Dispatcher>();

/** One connection pool per CA bundle, kept for the process. */
function agentFor(ca: string | undefined): Dispatcher | undefined {
  if (!ca) return undefined;
  let agent = agents.get(ca);
  if (!agent) {
    agent = new Agent({ connect: { ca } });
    agents.set(ca, agent);
  }
  return agent;
}

const basicHeader = (c: BasicCredentials): string =>
  `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;

/**
 * GETs `url` whole, at most `limit` bytes. Redirects are followed (fetch drops the Authorization
 * header on a hop to another origin). Errors carry a ChartError code and never a credential.
 */
export async function httpGet(url: URL, opts: HttpGetOptions): Promise<Uint8Array> {
  const headers: Record<string, string> = { 'user-agent': 'flowops-charts' };
  const creds = opts.credentials && url.origin === opts.credentials.origin ? opts.credentials.basic : undefined;
  if (creds) headers.authorization = basicHeader(creds);
  const dispatcher = agentFor(opts.ca);
  let res: Response;
  try {
    res = await fetch(url, {
      headers,
      redirect: 'follow',
      ...(dispatcher ? { dispatcher } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
    throw new ChartError('ChartFetchFailed', `${opts.what}: ${cause}`);
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    if (!creds) {
      throw new ChartError(
        'ChartAuthRequired',
        `${opts.what}: the repository asks for credentials (${res.status}) and none are configured`,
      );
    }
    throw new ChartError('ChartAuthFailed', `${opts.what}: the repository refused the credentials (${res.status})`);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    throw new ChartError('ChartNotFound', `${opts.what}: not found (404)`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ChartError('ChartFetchFailed', `${opts.what}: HTTP ${res.status}`);
  }
  return readCapped(res, opts);
}

async function readCapped(res: Response, opts: HttpGetOptions): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk: Uint8Array = value;
      size += chunk.byteLength;
      if (size > opts.limit) {
        await reader.cancel();
        throw new ChartError('ChartInvalid', `${opts.what}: over the ${opts.limit}-byte limit`);
      }
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof ChartError || opts.signal?.aborted) throw e;
    throw new ChartError('ChartFetchFailed', `${opts.what}: cut short: ${e instanceof Error ? e.message : String(e)}`);
  }
  return Buffer.concat(chunks);
}
