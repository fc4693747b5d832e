import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { BullQueue } from '../../src/queue/bullmq-queue.js';
import { redisOptions, redisUrl } from '../../src/queue/redis-connection.js';
import { Resync } from '../../src/queue/resync.js';
import { microTime } from '../../src/kube/micro-time.js';
import { waitFor } from '../helpers/wait.js';

const log = pino({ level: 'silent' });
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function setup(everyMs: number) {
  const q = new BullQueue({ redisUrl: redisUrl(), name: `resync-${randomUUID()}`, prefix: 'flowops-test', log });
  const runs = new Map<string, number>();
  q.start(async (k) => void runs.set(k, (runs.get(k) ?? 0) + 1), { concurrency: 4 });
  const resync = new Resync({ producer: q.producer, keys: () => ['a', 'b', 'c'], everyMs, log });
  cleanup.push(async () => {
    await resync.stop();
    await q.consumer.stop();
    await q.producer.queue.obliterate({ force: true }).catch(() => undefined);
    await q.producer.close();
  });
  return { q, runs, resync };
}

describe('Resync: Redis is re-derivable', () => {
  it('enqueues every key on start and again after the Redis connection comes back', async () => {
    const { q, runs, resync } = setup(3_600_000);
    await resync.start();
    await waitFor(() => runs.size === 3, { what: 'start resync' });
    // Per key: the start resyncs may still have follow-up runs pending (they overlap with the
    // scheduler's first run), so each key is compared with its own count, not another key's.
    const before = new Map(runs);
    // A dropped connection (as when Redis restarts): ioredis reconnects and says "ready" again.
    q.producer.redis.disconnect(true);
    await waitFor(() => ['a', 'b', 'c'].every((k) => runs.get(k)! > before.get(k)!), {
      what: 'every key runs again after the reconnect',
    });
  });

  it('a job scheduler resyncs periodically', async () => {
    const { runs, resync } = setup(300);
    await resync.start();
    await waitFor(() => (runs.get('b') ?? 0) >= 3, { what: 'three periodic resyncs', timeoutMs: 5000 });
  });
});

describe('small helpers', () => {
  it('writes MicroTime with six fractional digits', () => {
    expect(microTime(Date.parse('2026-11-30T04:07:35.980Z'))).toBe('2026-11-30T04:07:35.980000Z');
  });

  it('reads redis URLs with credentials, database and TLS', () => {
    expect(redisOptions('rediss://user:p%40ss@redis.example:6380/2')).toEqual({
      host: 'redis.example',
      port: 6380,
      username: 'user',
      password: 'p@ss',
      db: 2,
      tls: {},
      maxRetriesPerRequest: null,
    });
    expect(() => redisOptions('http://x')).toThrow(/redis:\/\//);
  });
});
