import { SetupError } from '../util/setup-error.js';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { parseDuration } from '../api/duration.js';
import {
  DEFAULT_EVENT_TTL_MS,
  DEFAULT_KUBERNETES_VERSION,
  DEFAULT_PORT,
  DEFAULT_SERVICE_CIDR,
  DEFAULT_STORAGE_CACHE_MIB,
  DEFAULT_STORAGE_CACHE_OBJECTS,
} from '../apiserver/server-defaults.js';
import type { ApiServer } from '../apiserver/index.js';
import type { EmbeddedCredentials } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { parseListen } from './listen.js';
import { addLogFlags, type LogFlags } from './log-format.js';
import { onShutdown } from './shutdown.js';
import { summaryOf } from './command-table.js';

export interface ServerFlags extends LogFlags {
  listen: string;
  data: string;
  kubeconfig?: string;
  kubernetesVersion?: string;
  serviceCidr?: string;
  /** HTTPS, authentication and RBAC (on for `up`, `--auth` for `apiserver`). */
  auth?: boolean;
  anonymous?: boolean;
  eventTtl: number;
  /** How many stored objects, and how many MiB of their JSON, the server keeps in memory (0: none). */
  storageCacheObjects: number;
  storageCacheMib: number;
}

export function addServerFlags(cmd: Command): Command {
  return addLogFlags(cmd)
    .option(
      '--listen <host:port>',
      'address of the embedded API server (127.0.0.1 unless told otherwise)',
      `127.0.0.1:${DEFAULT_PORT}`,
    )
    .option('--data <dir>', 'directory for the SQLite state and other data', '.flowops')
    .option(
      '--kubeconfig <file>',
      'where to write a kubeconfig for kubectl and client libraries (default: <data>/kubeconfig)',
    )
    .option('--kubernetes-version <x.y.z>', 'version reported on /version', DEFAULT_KUBERNETES_VERSION)
    .option(
      '--service-cidr <cidr>',
      "range Services' cluster IPs are allocated from (the kubernetes Service has its first address)",
      DEFAULT_SERVICE_CIDR,
    )
    .option(
      '--anonymous',
      'with auth on: requests without credentials are system:anonymous and RBAC decides (default: 401)',
    )
    .option(
      '--event-ttl <duration>',
      'how long an Event is kept after its last write (as kube-apiserver --event-ttl)',
      eventTtlFlag,
      DEFAULT_EVENT_TTL_MS,
    )
    .option(
      '--storage-cache-objects <n>',
      'stored objects kept in memory, most recently used (0: every read goes to SQLite)',
      wholeFlag('--storage-cache-objects'),
      DEFAULT_STORAGE_CACHE_OBJECTS,
    )
    .option(
      '--storage-cache-mib <n>',
      'MiB of stored JSON kept in memory at most',
      wholeFlag('--storage-cache-mib'),
      DEFAULT_STORAGE_CACHE_MIB,
    );
}

function wholeFlag(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) {
      throw new InvalidArgumentError(`${name} must be a whole number >= 0, got "${v}"`);
    }
    return n;
  };
}

function eventTtlFlag(v: string): number {
  let ms: number;
  try {
    ms = parseDuration(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  if (ms <= 0) throw new InvalidArgumentError(`--event-ttl must be a positive duration, got "${v}"`);
  return ms;
}

/** Starts the embedded API server and writes its kubeconfig; errors are one line, for the CLI to print. */
export async function startEmbedded(
  flags: ServerFlags,
  log: Logger,
): Promise<{ server: ApiServer; kubeconfig: string; credentials?: EmbeddedCredentials }> {
  const { host, port } = parseListen(flags.listen);
  const dataDir = resolve(flags.data);
  const [{ startApiServer }, { writeKubeconfig }, { ensureServerPki }, { ADMIN_USER }, { processMetrics }] =
    await Promise.all([
      import('../apiserver/index.js'),
      import('../kube/kubeconfig.js'),
      import('../apiserver/auth/pki.js'),
      import('../apiserver/auth/index.js'),
      import('../metrics/registry.js'),
    ]);
  // Kept in the data directory: a restart keeps the CA the kubeconfigs trust, the tokens issued and the admin token.
  const pki = flags.auth ? await ensureServerPki(join(dataDir, 'pki'), [host]) : undefined;
  const credentials = pki ? { caCert: pki.caCert, token: pki.adminToken } : undefined;
  const server = await startApiServer({
    host,
    port,
    dataDir,
    ...(pki
      ? {
          tls: { key: pki.serverKey, cert: pki.serverCert, clientCa: pki.caCert },
          csrSigner: { caCertFile: join(pki.dir, 'ca.crt'), caKeyFile: join(pki.dir, 'ca.key') },
          plainHttpToo: true,
          auth: {
            serviceAccountKey: pki.serviceAccountKey,
            staticTokens: [{ token: pki.adminToken, user: ADMIN_USER }],
            anonymous: flags.anonymous ?? false,
          },
        }
      : {}),
    metrics: processMetrics().registry,
    eventTtlMs: flags.eventTtl,
    storageCache: { maxObjects: flags.storageCacheObjects, maxBytes: flags.storageCacheMib * 1048576 },
    ...(flags.kubernetesVersion ? { kubernetesVersion: flags.kubernetesVersion } : {}),
    ...(flags.serviceCidr ? { serviceCidr: flags.serviceCidr } : {}),
    onInternalError: (err, req) => log.error({ err, method: req.method, url: req.url }, 'request failed'),
  }).catch((e: unknown) => {
    const code = (e as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new SetupError(`cannot listen on ${flags.listen}: address already in use`);
    if (code === 'EACCES') throw new SetupError(`cannot listen on ${flags.listen}: permission denied`);
    throw e;
  });
  const kubeconfig = resolve(flags.kubeconfig ?? `${dataDir}/kubeconfig`);
  try {
    writeKubeconfig(kubeconfig, server.url, credentials);
  } catch (e) {
    await server.close();
    throw new SetupError(`cannot write kubeconfig ${kubeconfig}: ${(e as Error).message}`);
  }
  log.info({ url: server.url, dataDir, kubeconfig, auth: Boolean(pki) }, 'embedded API server listening');
  return { server, kubeconfig, ...(credentials ? { credentials } : {}) };
}

/** `flowops apiserver`: only the embedded API server, in the foreground. */
export function registerApiserverCommand(program: Command): void {
  addServerFlags(program.command('apiserver').description(summaryOf('apiserver')))
    .option(
      '--auth',
      'serve HTTPS with authentication and RBAC, the kubeconfig carrying an admin token (what `up` does; default: plain HTTP, every request allowed)',
    )
    .action(async (flags: ServerFlags) => {
      const { createLogger } = await import('../log/index.js');
      const log = createLogger({ command: 'apiserver' }, flags.logFormat);
      const { server, kubeconfig } = await startEmbedded(flags, log);
      // /metrics on the API server's own listener, as kube-apiserver serves its own.
      const [{ processMetrics }, { metricsRoute }] = await Promise.all([
        import('../metrics/registry.js'),
        import('../metrics/route.js'),
      ]);
      server.addRoute(metricsRoute(processMetrics().registry), { behindAuth: true });
      process.stdout.write(`FlowOps API server listening on ${server.url}\nkubeconfig: ${kubeconfig}\n`);
      onShutdown(log, () => server.close());
    });
}
