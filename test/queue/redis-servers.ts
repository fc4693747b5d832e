// Real redis-server processes in the modes production runs: TLS with an ACL user, a master with a
// replica and a Sentinel, and a three-node Cluster. Each on free loopback ports, in its own folder.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../setup/redis-probe.js';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait.js';

export interface RedisProcess {
  port: number;
  child: ChildProcess;
  log(): string;
  kill9(): void;
}

export interface RedisCluster {
  dir: string;
  stop(): Promise<void>;
}

const SERVER = findExecutable('redis-server');
const CLI = findExecutable('redis-cli');
export const redisAvailable = SERVER !== undefined && CLI !== undefined;

/** redis-cli against a node: its answer, trimmed (throws on a failed command). */
export function cli(port: number, args: string[], extra: string[] = []): string {
  return execFileSync(CLI ?? 'redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...extra, ...args], {
    encoding: 'utf8',
  }).trim();
}

function start(dir: string, name: string, port: number, args: string[], sentinel = false, config = ''): RedisProcess {
  const conf = join(dir, `${name}.conf`);
  // Sentinel rewrites its configuration file: its settings go there, not on the command line.
  writeFileSync(conf, config);
  const argv = [
    conf,
    ...(sentinel ? ['--sentinel'] : []),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    ...args,
  ];
  const child = spawn(SERVER ?? 'redis-server', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { port, child, log: () => out, kill9: () => child.kill('SIGKILL') };
}

async function answering(p: RedisProcess, extra: string[] = []): Promise<void> {
  await waitFor(
    () => {
      if (p.child.exitCode !== null) throw new Error(`redis-server on ${p.port} exited: ${p.log()}`);
      try {
        return cli(p.port, ['PING'], extra) === 'PONG';
      } catch {
        return false;
      }
    },
    { what: `redis-server on ${p.port}`, timeoutMs: 15_000 },
  );
}

async function stopAll(procs: RedisProcess[], dir: string): Promise<void> {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
      p.child.kill('SIGTERM');
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** A CA and a server certificate for 127.0.0.1 / localhost, made with openssl. */
export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const ca = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca-key.pem');
  const key = join(dir, 'server-key.pem');
  const csr = join(dir, 'server.csr');
  const cert = join(dir, 'server.pem');
  const ext = join(dir, 'san.ext');
  const run = (args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    caKey,
    '-out',
    ca,
    '-days',
    '1',
    '-subj',
    '/CN=flowops-test-ca',
  ]);
  run([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    csr,
    '-subj',
    '/CN=localhost',
  ]);
  writeFileSync(ext, 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '1',
    '-extfile',
    ext,
  ]);
  return { ca, cert, key };
}

/** One server that speaks only TLS and knows one ACL user, `flowops`, limited to keys under `flowops`. */
export async function tlsServer(password: string): Promise<RedisCluster & { port: number; ca: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-redis-tls-'));
  const certs = makeCertificates(dir);
  const port = await freePort();
  const server = start(dir, 'tls', 0, [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--tls-cert-file',
    certs.cert,
    '--tls-key-file',
    certs.key,
    '--tls-ca-cert-file',
    certs.ca,
    '--tls-auth-clients',
    'no',
    '--user',
    'default',
    'off',
    '--user',
    'flowops',
    'on',
    `>${password}`,
    '~flowops*',
    '&*',
    '+@all',
  ]);
  const proc = { ...server, port };
  await answering(proc, ['--tls', '--cacert', certs.ca, '--user', 'flowops', '--pass', password, '--no-auth-warning']);
  return { dir, port, ca: certs.ca, stop: () => stopAll([server], dir) };
}

/** A master, one replica and one Sentinel watching them as `mymaster` (quorum 1, fast failover). */
export async function sentinelSet(): Promise<
  RedisCluster & { master: RedisProcess; replica: RedisProcess; sentinel: RedisProcess }
> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-redis-sentinel-'));
  const [mp, rp, sp] = [await freePort(), await freePort(), await freePort()];
  const master = start(dir, 'master', mp, ['--port', String(mp)]);
  await answering(master);
  const replica = start(dir, 'replica', rp, ['--port', String(rp), '--replicaof', '127.0.0.1', String(mp)]);
  await answering(replica);
  await waitFor(() => /master_link_status:up/.test(cli(rp, ['INFO', 'replication'])), {
    what: 'replica in sync',
    timeoutMs: 15_000,
  });
  const config = [
    `sentinel monitor mymaster 127.0.0.1 ${mp} 1`,
    'sentinel down-after-milliseconds mymaster 1000',
    'sentinel failover-timeout mymaster 5000',
    '',
  ].join('\n');
  const sentinel = start(dir, 'sentinel', sp, ['--port', String(sp)], true, config);
  await answering(sentinel);
  await waitFor(() => cli(sp, ['SENTINEL', 'get-master-addr-by-name', 'mymaster']).includes(String(mp)), {
    what: 'sentinel knows the master',
  });
  return { dir, master, replica, sentinel, stop: () => stopAll([sentinel, replica, master], dir) };
}

/** Three masters with all 16384 slots between them. */
export async function clusterOfThree(): Promise<RedisCluster & { nodes: RedisProcess[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-redis-cluster-'));
  const nodes: RedisProcess[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const nodeDir = join(dir, `n${i}`);
    mkdirSync(nodeDir);
    const node = start(nodeDir, `node-${i}`, port, [
      '--port',
      String(port),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(nodeDir, 'nodes.conf'),
      '--cluster-node-timeout',
      '2000',
    ]);
    await answering(node);
    nodes.push(node);
  }
  execFileSync(
    CLI ?? 'redis-cli',
    ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'],
    { stdio: 'ignore' },
  );
  await waitFor(() => nodes.every((n) => /cluster_state:ok/.test(cli(n.port, ['CLUSTER', 'INFO']))), {
    what: 'cluster_state:ok on every node',
    timeoutMs: 20_000,
  });
  return { dir, nodes, stop: () => stopAll(nodes, dir) };
}
