import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The real CNCF distribution registry (scripts/control-plane/build-registry.sh), on loopback with
 * filesystem storage; with `htpasswd`, every request needs Basic credentials (401 otherwise).
 */
export const REGISTRY_BIN =
  process.env.FLOWOPS_REGISTRY ??
  join(process.env.FLOWOPS_CACHE ?? join(homedir(), '.cache', 'flowops'), 'registry-v3.0.0', 'bin', 'registry');

/** Why the registry tests cannot run here ('' when they can). */
export const registrySkipReason = existsSync(REGISTRY_BIN)
  ? ''
  : `no registry at ${REGISTRY_BIN} (scripts/control-plane/build-registry.sh builds it; .ci/run does with Go)`;

export interface Registry {
  /** host:port */
  host: string;
  logs(): string;
  stop(): Promise<void>;
}

export async function startRegistry(dir: string, htpasswd?: string): Promise<Registry> {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const auth = htpasswd ? `auth:\n  htpasswd:\n    realm: flowops-test\n    path: ${join(dir, 'htpasswd')}\n` : '';
  if (htpasswd) writeFileSync(join(dir, 'htpasswd'), `${htpasswd}\n`);
  writeFileSync(
    join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log:\n  level: info\n  accesslog:\n    disabled: true',
      `storage:\n  filesystem:\n    rootdirectory: ${join(dir, 'storage')}\n  delete:\n    enabled: true`,
      `http:\n  addr: 127.0.0.1:${port}`,
      auth,
    ].join('\n'),
  );
  const child: ChildProcess = spawn(REGISTRY_BIN, ['serve', join(dir, 'config.yml')], {
    env: { ...process.env, OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_SDK_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const host = `127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`registry exited ${child.exitCode}: ${out}`);
      const res = await fetch(`http://${host}/v2/`).catch(() => undefined);
      return res && (res.status === 200 || res.status === 401);
    },
    { what: `the registry on ${host}\n${out}`, timeoutMs: 30_000 },
  );
  return {
    host,
    logs: () => out.slice(-4000),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export type TamperMode = 'pass' | 'truncate-blobs' | 'rewrite-manifests';

/**
 * A proxy in front of a registry that passes requests through, or cuts every blob short, or
 * changes a byte of every manifest (so that it no longer hashes to its digest): how a broken
 * mirror or a tampering middlebox looks to FlowOps.
 */
export async function startTamperProxy(
  upstream: string,
): Promise<{ host: string; mode: TamperMode; stop(): Promise<void> }> {
  const state = { mode: 'pass' as TamperMode };
  const server: Server = createServer((req, res) => {
    const up = request(
      {
        host: upstream.split(':')[0],
        port: Number(upstream.split(':')[1]),
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream },
      },
      (upRes) => {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('end', () => {
          let body = Buffer.concat(chunks);
          const headers = { ...upRes.headers };
          if (req.method === 'GET' && state.mode === 'truncate-blobs' && /\/blobs\/sha256:/.test(req.url ?? '')) {
            body = body.subarray(0, Math.floor(body.length / 2));
            headers['content-length'] = String(body.length);
          }
          if (req.method === 'GET' && state.mode === 'rewrite-manifests' && /\/manifests\//.test(req.url ?? '')) {
            body = Buffer.from(body.toString('utf8').replace('"schemaVersion":2', '"schemaVersion": 2'));
            headers['content-length'] = String(body.length);
          }
          res.writeHead(upRes.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: TamperMode) {
      state.mode = m;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
