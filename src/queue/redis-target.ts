// Where the reconcile queue's Redis is, read from one URL (REDIS_URL / --redis-url), in the three
// shapes Redis is run in production:
//   redis://[user:password@]host[:port][/db]                 one server
//   rediss://…                                               the same over TLS
//   redis+sentinel://[user:password@]h1:26379,h2:26379/master[/db]   Sentinel (the master by name)
//   redis+cluster://[user:password@]h1:7000,h2:7001          Cluster (any reachable nodes)
//   rediss+sentinel://…, rediss+cluster://…                  those over TLS
// Query parameters: `tls_ca` (a PEM file that signs the servers' certificates), `tls_servername`
// (the name to check them against), and for Sentinel `sentinel_username` / `sentinel_password`
// (the sentinels' own credentials, when they differ from the data nodes'). WHATWG URL cannot parse
// several host:port pairs, so the host list is split by hand.

export interface RedisNode {
  host: string;
  port: number;
}

export interface RedisTls {
  /** PEM file of the CA that signs the servers' certificates; the system's CAs otherwise. */
  caFile?: string;
  servername?: string;
}

interface Credentials {
  username?: string;
  password?: string;
}

export type RedisTarget =
  | ({ mode: 'standalone'; node: RedisNode; db?: number; tls?: RedisTls } & Credentials)
  | ({
      mode: 'sentinel';
      sentinels: RedisNode[];
      /** The master's name as the sentinels know it. */
      name: string;
      db?: number;
      tls?: RedisTls;
      sentinelUsername?: string;
      sentinelPassword?: string;
    } & Credentials)
  | ({ mode: 'cluster'; nodes: RedisNode[]; tls?: RedisTls } & Credentials);

/** A Redis URL FlowOps cannot use; the message names what was expected (the password never shows). */
export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
  readonly code = 'InvalidRedisUrl';
}

const SCHEMES: Record<string, { mode: RedisTarget['mode']; tls: boolean; port: number }> = {
  'redis:': { mode: 'standalone', tls: false, port: 6379 },
  'rediss:': { mode: 'standalone', tls: true, port: 6379 },
  'redis+sentinel:': { mode: 'sentinel', tls: false, port: 26379 },
  'rediss+sentinel:': { mode: 'sentinel', tls: true, port: 26379 },
  'redis+cluster:': { mode: 'cluster', tls: false, port: 6379 },
  'rediss+cluster:': { mode: 'cluster', tls: true, port: 6379 },
};

/** The URL with its credentials replaced, for messages and logs. */
export function redactRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

export function parseRedisUrl(url: string): RedisTarget {
  const shown = redactRedisUrl(url);
  const scheme = /^([a-z+]+:)\/\//i.exec(url);
  const kind = scheme ? SCHEMES[scheme[1]!.toLowerCase()] : undefined;
  if (!scheme || !kind) {
    throw new RedisUrlError(
      `Redis URL "${shown}": expected redis://, rediss://, redis+sentinel://, redis+cluster:// (or their rediss+ forms)`,
    );
  }
  const rest = url.slice(scheme[0].length);
  const [beforeQuery = '', query = ''] = splitOnce(rest, '?');
  const slash = beforeQuery.indexOf('/');
  const authority = slash === -1 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = slash === -1 ? '' : beforeQuery.slice(slash + 1);
  const at = authority.lastIndexOf('@');
  const credentials = at === -1 ? {} : parseCredentials(authority.slice(0, at));
  const nodes = parseNodes(authority.slice(at + 1), kind.port, shown);
  const params = new URLSearchParams(query);
  const tls = kind.tls ? tlsOf(params) : undefined;
  const segments = path.split('/').filter((s) => s !== '');
  const dbOf = (text: string | undefined): { db?: number } => {
    if (text === undefined) return {};
    if (!/^\d+$/.test(text)) throw new RedisUrlError(`Redis URL "${shown}": the database "${text}" is not a number`);
    return { db: Number(text) };
  };
  switch (kind.mode) {
    case 'standalone': {
      if (nodes.length !== 1)
        throw new RedisUrlError(
          `Redis URL "${shown}": one host:port expected; for several use redis+sentinel:// or redis+cluster://`,
        );
      if (segments.length > 1) throw new RedisUrlError(`Redis URL "${shown}": the path is the database number only`);
      return { mode: 'standalone', node: nodes[0]!, ...credentials, ...dbOf(segments[0]), ...(tls ? { tls } : {}) };
    }
    case 'sentinel': {
      const [name, db, ...extra] = segments;
      if (!name || extra.length)
        throw new RedisUrlError(
          `Redis URL "${shown}": expected redis+sentinel://host:port[,host:port…]/<master name>[/<db>]`,
        );
      const sentinelUsername = params.get('sentinel_username') ?? undefined;
      const sentinelPassword = params.get('sentinel_password') ?? undefined;
      return {
        mode: 'sentinel',
        sentinels: nodes,
        name: decodeURIComponent(name),
        ...credentials,
        ...dbOf(db),
        ...(tls ? { tls } : {}),
        ...(sentinelUsername ? { sentinelUsername } : {}),
        ...(sentinelPassword ? { sentinelPassword } : {}),
      };
    }
    case 'cluster': {
      if (segments.length)
        throw new RedisUrlError(`Redis URL "${shown}": Redis Cluster has only database 0; drop the path`);
      return { mode: 'cluster', nodes, ...credentials, ...(tls ? { tls } : {}) };
    }
  }
}

function splitOnce(text: string, sep: string): [string, string] {
  const i = text.indexOf(sep);
  return i === -1 ? [text, ''] : [text.slice(0, i), text.slice(i + 1)];
}

function parseCredentials(userinfo: string): Credentials {
  const [user, password] = splitOnce(userinfo, ':');
  const hasPassword = userinfo.includes(':');
  return {
    ...(user ? { username: decodeURIComponent(user) } : {}),
    ...(hasPassword && password ? { password: decodeURIComponent(password) } : {}),
  };
}

function parseNodes(hosts: string, defaultPort: number, shown: string): RedisNode[] {
  const nodes = hosts.split(',').map((entry) => {
    // [::1]:6379 or host:6379 or host
    const m = /^(?:\[([^\]]+)\]|([^:]*))(?::(\d+))?$/.exec(entry.trim());
    const host = m?.[1] ?? m?.[2] ?? '';
    const port = m?.[3] === undefined ? defaultPort : Number(m[3]);
    if (!m || port < 1 || port > 65535) throw new RedisUrlError(`Redis URL "${shown}": "${entry}" is not host[:port]`);
    return { host: host || '127.0.0.1', port };
  });
  return nodes;
}

function tlsOf(params: URLSearchParams): RedisTls {
  const caFile = params.get('tls_ca') ?? undefined;
  const servername = params.get('tls_servername') ?? undefined;
  return { ...(caFile ? { caFile } : {}), ...(servername ? { servername } : {}) };
}
