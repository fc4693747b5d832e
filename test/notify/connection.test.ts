import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotifyError } from '../../src/notify/index.js';
import { send, type OutgoingRequest } from '../../src/notify/http-send.js';

const port = (s: Server): number => (s.address() as AddressInfo).port;

/** A CA and a certificate for 127.0.0.1 signed by it, made by the real openssl. */
function makeCerts(): { ca: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'notify-tls-'));
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=notify-test-ca',
  );
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'srv.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'srv.crt',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  return { ca: read('ca.crt'), cert: read('srv.crt'), key: read('srv.key') };
}

/**
 * A provider's CA bundle (certSecretRef) and proxy: an HTTPS receiver whose certificate only the
 * given CA vouches for, reached directly and through a real HTTP CONNECT proxy.
 */
describe('provider connections: CA bundle and proxy', () => {
  let certs: ReturnType<typeof makeCerts>;
  let receiver: Server;
  let proxy: Server;
  const received: string[] = [];
  let tunnels = 0;
  const req = (): OutgoingRequest => ({
    method: 'POST',
    url: `https://127.0.0.1:${port(receiver)}/hooks/secret-path-token`,
    headers: {},
    body: '{"ok":true}',
  });

  beforeAll(async () => {
    certs = makeCerts();
    receiver = createHttpsServer({ cert: certs.cert, key: certs.key }, (r, res) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200).end();
      });
    });
    proxy = createHttpServer();
    proxy.on('connect', (r, socket, head) => {
      tunnels++;
      const [host, p] = (r.url ?? '').split(':');
      const upstream = connect(Number(p), host ?? '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
    proxy?.closeAllConnections();
    await new Promise((r) => proxy?.close(r));
  });

  it("trusts the server through the provider's CA bundle, and only then", async () => {
    await send('default/hook', req(), { ca: certs.ca, timeoutMs: 10_000 });
    expect(received).toEqual(['{"ok":true}']);
    const err = await send('default/hook', req(), { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotifyError);
    expect((err as NotifyError).code).toBe('NetworkError');
    // The address may be a credential (a webhook URL): it is not in the message.
    expect((err as NotifyError).message).not.toContain('secret-path-token');
    expect((err as NotifyError).message).toMatch(/^provider default\/hook: /);
  });

  it('goes through the proxy (HTTP CONNECT), still checking the server against the CA bundle', async () => {
    const before = tunnels;
    await send('default/hook', req(), { ca: certs.ca, proxy: `http://127.0.0.1:${port(proxy)}`, timeoutMs: 10_000 });
    expect(tunnels).toBe(before + 1);
    expect(received.at(-1)).toBe('{"ok":true}');
  });
});
