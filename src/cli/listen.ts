import { SetupError } from '../util/setup-error.js';

/** Parses `--listen HOST:PORT` (IPv6 as `[::1]:PORT`); port 0 picks a free one. */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value);
  if (!m) throw new SetupError(`--listen: expected HOST:PORT (for example 127.0.0.1:6443), got "${value}"`);
  const host = m[1] ?? (m[2] || '127.0.0.1');
  const port = Number(m[3]);
  if (port > 65535) throw new SetupError(`--listen: port ${port} is out of range`);
  return { host, port };
}

/** A listener only this machine reaches: the web view then answers only loopback Host names. */
export const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || host.startsWith('127.');
