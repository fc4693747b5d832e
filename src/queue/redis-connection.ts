import { Redis } from 'ioredis';

export { DEFAULT_REDIS_URL, redisUrl } from './names.js';

/**
 * Connection options for BullMQ from a redis:// or rediss:// URL. `maxRetriesPerRequest: null`
 * keeps commands queued across a Redis restart instead of failing them (BullMQ workers require it).
 */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
  maxRetriesPerRequest: null;
}

export function redisOptions(url: string): RedisConnectionOptions {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`REDIS_URL: expected redis:// or rediss://, got "${url}"`);
  const db = u.pathname.replace(/^\//, '');
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** An ioredis client we own (so we can watch its reconnects); the caller quits it. */
export function createRedis(url: string): Redis {
  return new Redis(redisOptions(url));
}
