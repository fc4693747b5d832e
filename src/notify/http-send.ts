import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { NotifyError, codeOfStatus } from './errors.js';

export interface Connection {
  /** PEM CA bundle the server's certificate is checked against (certSecretRef). */
  ca?: string;
  proxy?: string;
  timeoutMs: number;
}

export interface OutgoingRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  /** Ignored for GET. */
  body: string;
}

const dispatchers = new Map<string, Dispatcher>();

/** One connection pool per (proxy, CA) pair, kept for the process: providers share it. */
function dispatcherFor(c: Connection): Dispatcher {
  const key = `${c.proxy ?? ''}\0${c.ca ?? ''}`;
  let d = dispatchers.get(key);
  if (!d) {
    const tls = c.ca ? { ca: c.ca } : {};
    d = c.proxy ? new ProxyAgent({ uri: c.proxy, requestTls: tls, proxyTls: tls }) : new Agent({ connect: tls });
    dispatchers.set(key, d);
  }
  return d;
}

/**
 * Sends one request and reads the answer; a non-2xx answer, a timeout or a lost connection is a
 * NotifyError whose message holds the provider's name and the status only (the URL may hold a secret).
 */
export async function send(provider: string, req: OutgoingRequest, c: Connection): Promise<string> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, {
      method: req.method,
      headers: { 'content-type': 'application/json', 'user-agent': 'flowops-notify', ...req.headers },
      body: req.method === 'GET' ? null : req.body,
      dispatcher: dispatcherFor(c),
      signal: AbortSignal.timeout(c.timeoutMs),
    });
  } catch (err) {
    const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    if (timeout) throw new NotifyError('Timeout', `provider ${provider}: no answer within ${c.timeoutMs} ms`);
    const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : 'connection failed';
    throw new NotifyError('NetworkError', `provider ${provider}: ${code}`);
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode >= 200 && res.statusCode < 300) return text;
  throw new NotifyError(codeOfStatus(res.statusCode), `provider ${provider}: HTTP ${res.statusCode}`, res.statusCode);
}
