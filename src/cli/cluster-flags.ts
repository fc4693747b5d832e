import type { Command } from 'commander';
import { parseDuration } from '../api/duration.js';
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { FlowOpsMetrics, MetricsServer, MetricsServerOptions } from '../metrics/index.js';
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME, redisUrl } from '../queue/names.js';
import { parseListen } from './listen.js';
import { addLogFlags, type LogFlags } from './log-format.js';
import { addTenancyFlags, type TenancyFlags } from './tenancy-flags.js';

/** Flags `flowops run` and `flowops worker` share: cluster, Redis, queue, metrics, lease. */
export interface ClusterFlags extends LogFlags, TenancyFlags {
  kubeconfig?: string;
  redisUrl?: string;
  queue: string;
  redisPrefix: string;
  metricsListen: string;
  leaseNamespace: string;
  leaseName: string;
  sourceDir?: string;
}

export function addClusterFlags(cmd: Command): Command {
  return addTenancyFlags(addLogFlags(cmd))
    .option(
      '--kubeconfig <file>',
      'kubeconfig to use (default: KUBECONFIG, ~/.kube/config or the in-cluster service account)',
    )
    .option(
      '--redis-url <url>',
      'Redis for the reconcile queue: redis://, rediss://, redis+sentinel://h:p,…/master or redis+cluster://h:p,… (default: REDIS_URL or redis://127.0.0.1:6379)',
    )
    .option('--queue <name>', 'BullMQ queue name', process.env.FLOWOPS_QUEUE ?? DEFAULT_QUEUE_NAME)
    .option('--redis-prefix <prefix>', 'Redis key prefix of the queue', DEFAULT_PREFIX)
    .option(
      '--metrics-listen <host:port>',
      'address for /metrics, /healthz and /readyz (port 0 picks a free one)',
      '0.0.0.0:8080',
    )
    .option(
      '--lease-namespace <ns>',
      'namespace of the leader-election Lease',
      process.env.POD_NAMESPACE ?? 'flowops-system',
    )
    .option('--lease-name <name>', 'name of the leader-election Lease', 'flowops-leader')
    .option('--source-dir <dir>', 'folder that relative chart and kustomize paths in Flows resolve against');
}

export const durationFlag = (v: string): number => parseDuration(v);

/**
 * The cluster's client, found as kubectl finds it; a missing or unusable kubeconfig is a one-line
 * SetupError. Loaded on use: the client library costs a command that needs no cluster seconds.
 */
export async function kubeFrom(flags: { kubeconfig?: string | undefined }): Promise<KubeClient> {
  const { kubeClientFor } = await import('./kube-setup.js');
  return kubeClientFor(flags.kubeconfig);
}

export function redisUrlFrom(flags: ClusterFlags): string {
  return flags.redisUrl ?? redisUrl();
}

/**
 * Fails fast with one line when Redis does not answer, instead of BullMQ retrying for ever in the
 * background. The password in the URL is never shown.
 */
export async function checkRedis(url: string): Promise<void> {
  const { createRedis, redactRedisUrl } = await import('../queue/redis-connection.js');
  const shown = redactRedisUrl(url);
  const client = createRedis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // ioredis rejects connect() with "Connection is closed."; the socket's own error says why.
  let socketError: unknown;
  client.on('error', (e: unknown) => void (socketError ??= e));
  try {
    await client.connect();
    await client.ping();
  } catch (thrown) {
    const err = socketError ?? thrown;
    const { asSetupError, SetupError } = await import('../util/setup-error.js');
    throw (
      asSetupError(
        err,
        `Redis at ${shown}`,
        'set REDIS_URL or --redis-url, or start redis-server (Debian package redis-server)',
      ) ??
      new SetupError(
        `Redis at ${shown} does not answer (${err instanceof Error ? err.message : String(err)}): set REDIS_URL or --redis-url`,
      )
    );
  } finally {
    client.disconnect();
  }
}

/** Starts the metrics listener and says where it is, on stdout (for people and tests) and in the log. */
export async function serveMetrics(
  flags: ClusterFlags,
  metrics: FlowOpsMetrics,
  log: Logger,
  extra: Pick<MetricsServerOptions, 'ready' | 'beforeScrape' | 'routes'>,
): Promise<MetricsServer> {
  const { host, port } = parseListen(flags.metricsListen);
  const { startMetricsServer } = await import('../metrics/server.js');
  const server = await startMetricsServer({ host, port, registry: metrics.registry, ...extra });
  log.info({ address: server.address }, 'metrics listening');
  process.stdout.write(`metrics listening on http://${server.address}/metrics\n`);
  return server;
}
