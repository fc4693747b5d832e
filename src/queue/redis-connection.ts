// Redis clients for the reconcile queue, in whichever shape the URL names (redis-target.ts): one
// server, a Sentinel-monitored master, or a Cluster, each optionally over TLS and with an ACL user.
// Every BullMQ Queue and Worker is handed a client made here (BullMQ builds only plain ioredis
// clients from options, never a Cluster), so the caller that made it disconnects it after closing
// what uses it.
import { readFileSync } from 'node:fs';
import { Cluster, Redis } from 'ioredis';
import { parseRedisUrl, redactRedisUrl, RedisUrlError, type RedisTarget, type RedisTls } from './redis-target.js';

export { DEFAULT_REDIS_URL, redisUrl } from './names.js';
export { parseRedisUrl, redactRedisUrl, RedisUrlError, type RedisTarget } from './redis-target.js';

export type RedisClient = Redis | Cluster;

/** Options every connection gets on top of the URL's (a connection check turns retries off). */
export interface ClientOverrides {
  lazyConnect?: boolean;
  connectTimeout?: number;
  maxRetriesPerRequest?: number | null;
  retryStrategy?: (times: number) => number | null;
}

/**
 * What a data node's connection carries. Spelled out rather than ioredis's RedisOptions, whose
 * optional fields do not satisfy its own constructors under exactOptionalPropertyTypes.
 */
interface NodeOptions extends ClientOverrides {
  username?: string;
  password?: string;
  db?: number;
  tls?: { ca?: Buffer; servername?: string };
  maxRetriesPerRequest: number | null;
}

interface ServerOptions extends NodeOptions {
  host: string;
  port: number;
}

interface SentinelOptions extends NodeOptions {
  sentinels: Array<{ host: string; port: number }>;
  name: string;
  sentinelUsername?: string;
  sentinelPassword?: string;
  enableTLSForSentinelMode?: boolean;
  sentinelTLS?: NonNullable<NodeOptions['tls']>;
}

function tlsOptions(tls: RedisTls | undefined): Pick<NodeOptions, 'tls'> {
  if (!tls) return {};
  return {
    tls: {
      ...(tls.caFile ? { ca: readFileSync(tls.caFile) } : {}),
      ...(tls.servername ? { servername: tls.servername } : {}),
    },
  };
}

/** The options of one data node: credentials, TLS, and what BullMQ requires of its connections. */
function nodeOptions(target: RedisTarget, overrides: ClientOverrides): NodeOptions {
  return {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...('db' in target && target.db !== undefined ? { db: target.db } : {}),
    ...tlsOptions(target.tls),
    // Commands wait across a Redis restart or failover instead of failing (BullMQ's workers require it).
    maxRetriesPerRequest: null,
    ...overrides,
  };
}

/**
 * ioredis options for one server or a Sentinel-monitored master (what BullMQ can take as options);
 * a Cluster needs a client: createRedis.
 */
export function redisOptions(url: string, overrides: ClientOverrides = {}): ServerOptions | SentinelOptions {
  const target = parseRedisUrl(url);
  if (target.mode === 'cluster')
    throw new RedisUrlError(`Redis URL "${redactRedisUrl(url)}": a Cluster has no single-server options`);
  if (target.mode === 'sentinel') return sentinelOptions(target, overrides);
  return { host: target.node.host, port: target.node.port, ...nodeOptions(target, overrides) };
}

function sentinelOptions(
  target: Extract<RedisTarget, { mode: 'sentinel' }>,
  overrides: ClientOverrides,
): SentinelOptions {
  return {
    sentinels: target.sentinels,
    name: target.name,
    ...(target.sentinelUsername ? { sentinelUsername: target.sentinelUsername } : {}),
    ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
    // The sentinels speak TLS when the data nodes do.
    ...(target.tls ? { enableTLSForSentinelMode: true, sentinelTLS: tlsOptions(target.tls).tls ?? {} } : {}),
    ...nodeOptions(target, overrides),
  };
}

/** A client the caller owns and disconnects. */
export function createRedis(url: string, overrides: ClientOverrides = {}): RedisClient {
  const target = parseRedisUrl(url);
  switch (target.mode) {
    case 'standalone':
      return new Redis({ host: target.node.host, port: target.node.port, ...nodeOptions(target, overrides) });
    case 'sentinel':
      return new Redis(sentinelOptions(target, overrides));
    case 'cluster':
      return new Cluster(target.nodes, {
        redisOptions: nodeOptions(target, overrides),
        ...(overrides.lazyConnect ? { lazyConnect: true } : {}),
        ...(overrides.retryStrategy ? { clusterRetryStrategy: () => null } : {}),
        // TLS certificates name hosts, not the IPs the cluster announces: keep the names given.
        ...(target.tls
          ? { dnsLookup: (address: string, done: (err: null, address: string) => void) => done(null, address) }
          : {}),
      });
  }
}

/**
 * The key prefix of the queue. In a Cluster every key of one queue must hash to one slot (BullMQ's
 * scripts touch several keys at once), so the prefix becomes a hash tag: `flowops` → `{flowops}`.
 */
export function queuePrefix(url: string, prefix: string): string {
  if (parseRedisUrl(url).mode !== 'cluster' || /\{[^}]+\}/.test(prefix)) return prefix;
  return `{${prefix}}`;
}
