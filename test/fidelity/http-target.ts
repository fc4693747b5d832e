import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';

/** One server the scenarios are sent to: a base URL and, for the real one, the admin client cert. */
export interface Target {
  name: 'real' | 'embedded';
  url: string;
  tls?: { ca: string; cert: string; key: string };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The body text; for a watch, the events read joined by newlines. */
  body: string;
}

export interface SendOptions {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Read this many newline-delimited watch events, then destroy the connection. */
  watchEvents?: number;
  timeoutMs: number;
}

/** One HTTP exchange with a target; rejects only when no answer came (connection error, time-out). */
export function send(target: Target, o: SendOptions): Promise<Answer> {
  const url = new URL(o.path, target.url);
  // A fixed length, not a chunked body: after a chunked DELETE body the real server answered the
  // next request on the kept-alive connection with a bare 400.
  const headers =
    o.body === undefined ? o.headers : { ...o.headers, 'Content-Length': String(Buffer.byteLength(o.body)) };
  const options: RequestOptions = { method: o.method, headers, ...(target.tls ?? {}) };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      let text = '';
      const done = (body: string): void => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers, body });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (o.watchEvents === undefined) return;
        const lines = text.split('\n').filter((l) => l.trim() !== '');
        if (lines.length >= o.watchEvents && text.endsWith('\n')) {
          done(lines.slice(0, o.watchEvents).join('\n'));
          res.destroy();
        }
      });
      res.on('end', () => done(text));
      res.on('error', () => done(text));
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`${target.name}: no complete answer to ${o.method} ${o.path} within ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
