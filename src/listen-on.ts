import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` on host:port (port 0 picks one) and returns the host:port it is bound to, IPv6 in brackets. */
export async function listenOn(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const a = server.address() as AddressInfo;
  return `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
}
