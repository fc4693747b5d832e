import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string;
  body: Buffer;
  status: number;
  /** Every header line as sent (repeated headers such as Impersonate-Group stay separate). */
  rawHeaders: string[];
}

export interface RecordingProxy {
  url: string;
  /** Every request other than GET, in arrival order, with the status the server answered. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A plain-HTTP proxy in front of the embedded server that keeps the bodies clients send. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
        (r) => {
          if (req.method !== 'GET') {
            requests.push({
              method: req.method!,
              path: req.url!,
              contentType: req.headers['content-type'] ?? '',
              body,
              status: r.statusCode!,
              rawHeaders: req.rawHeaders,
            });
          }
          res.writeHead(r.statusCode!, r.headers);
          r.pipe(res);
        },
      );
      upstream.on('error', (e) => res.destroy(e));
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
