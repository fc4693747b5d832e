import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRedis } from '../../src/cli/cluster-flags.js';
import { BullQueue } from '../../src/queue/bullmq-queue.js';
import { parseRedisUrl, queuePrefix, RedisUrlError } from '../../src/queue/redis-connection.js';
import { Resync } from '../../src/queue/resync.js';
import { waitFor } from '../helpers/wait.js';
import { cli, clusterOfThree, redisAvailable, sentinelSet, tlsServer } from './redis-servers.js';

// The reconcile queue on Redis as production runs it: TLS with an ACL user, Sentinel with a
// failover in the middle of a burst, and Cluster. Every server is a real redis-server.

const log = pino({ level: 'silent' });
const cleanup: Array<() => Promise<void>> = [];
// Teardown after a failover has once outlasted the hook's minute in a full parallel run (a worker's
// close waiting on a connection to the old master): each step gets 20 s, then the next one runs,
// and the servers are stopped regardless. What the tests assert happens before teardown.
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 20_000)));
    const outcome = await Promise.race([c().then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') console.warn('redis-modes teardown: a step took over 20 s; going on');
  }
}, 120_000);

/** A queue on `url` whose handler counts runs per key; stopped after the test. */
function countingQueue(url: string) {
  const q = new BullQueue({ redisUrl: url, name: `modes-${randomUUID()}`, prefix: 'flowops', log });
  const runs = new Map<string, number>();
  q.start(async (key) => void runs.set(key, (runs.get(key) ?? 0) + 1), { concurrency: 8 });
  cleanup.push(async () => {
    await q.consumer.stop();
    await q.producer.queue.obliterate({ force: true }).catch(() => undefined);
    await q.producer.close();
  });
  // Should the graceful close hang, the connections still go (registered first, so it runs last).
  cleanup.unshift(async () => void q.producer.redis.disconnect());
  return { q, runs };
}

const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `default/flow|default/obj-${i}`);

describe('Redis URLs', () => {
  it('name one server, a Sentinel master or a Cluster, with TLS, ACL users and the sentinels own credentials', () => {
    expect(parseRedisUrl('rediss://flowops:p%40ss@redis.example:6380/2?tls_ca=/etc/ca.pem')).toEqual({
      mode: 'standalone',
      node: { host: 'redis.example', port: 6380 },
      username: 'flowops',
      password: 'p@ss',
      db: 2,
      tls: { caFile: '/etc/ca.pem' },
    });
    expect(parseRedisUrl('redis+sentinel://:pw@s1:26379,s2,[::1]:26380/mymaster/1?sentinel_password=spw')).toEqual({
      mode: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'mymaster',
      password: 'pw',
      db: 1,
      sentinelPassword: 'spw',
    });
    expect(parseRedisUrl('rediss+cluster://u:p@n1:7000,n2:7001')).toEqual({
      mode: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      username: 'u',
      password: 'p',
      tls: {},
    });
    expect(queuePrefix('redis+cluster://n1:7000', 'flowops')).toBe('{flowops}');
    expect(queuePrefix('redis+cluster://n1:7000', '{team}-flowops')).toBe('{team}-flowops');
    expect(queuePrefix('redis://n1', 'flowops')).toBe('flowops');
  });

  it('refuse what they cannot mean, naming it and never the password', () => {
    const refusals: Array<[string, RegExp]> = [
      ['http://u:secret@x', /expected redis:\/\/, rediss:\/\/, redis\+sentinel:\/\//],
      ['redis://u:secret@a:1,b:2', /one host:port expected; for several use redis\+sentinel/],
      ['redis+sentinel://u:secret@a:26379', /<master name>/],
      ['redis+cluster://u:secret@a:7000/3', /Cluster has only database 0/],
      ['redis://u:secret@a:99999', /"a:99999" is not host\[:port\]/],
      ['redis://u:secret@a/x', /the database "x" is not a number/],
    ];
    for (const [url, message] of refusals) {
      let thrown: unknown;
      try {
        parseRedisUrl(url);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, url).toBeInstanceOf(RedisUrlError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).not.toContain('secret');
    }
  });
});

describe.skipIf(!redisAvailable)('the reconcile queue on real Redis servers', () => {
  it('over TLS as an ACL user limited to its own keys; a wrong password is one clear line', async () => {
    const server = await tlsServer('s3cret');
    cleanup.push(server.stop);
    const url = `rediss://flowops:s3cret@127.0.0.1:${server.port}?tls_ca=${encodeURIComponent(server.ca)}`;
    await checkRedis(url);
    const { q, runs } = countingQueue(url);
    for (const k of keys(50)) q.add(k);
    await waitFor(() => runs.size === 50, {
      what: `50 keys reconciled over TLS (have ${runs.size})`,
      timeoutMs: 30_000,
    });
    // Plain TCP is not served at all, and a wrong password is refused with the URL redacted.
    const wrong = `rediss://flowops:nope@127.0.0.1:${server.port}?tls_ca=${encodeURIComponent(server.ca)}`;
    await expect(checkRedis(wrong)).rejects.toThrow(
      /Redis at rediss:\/\/\*\*\*@127\.0\.0\.1.*(WRONGPASS|invalid username-password)/,
    );
    await expect(checkRedis(wrong)).rejects.not.toThrow(/nope/);
  });

  it('through Sentinel: a master killed in the middle of a burst loses no reconcile', async () => {
    const set = await sentinelSet();
    cleanup.push(set.stop);
    const url = `redis+sentinel://127.0.0.1:${set.sentinel.port}/mymaster`;
    const { q, runs } = countingQueue(url);
    const all = keys(200);
    // As the leader does: every known key again when the connection comes back.
    const resync = new Resync({ producer: q.producer, keys: () => all, everyMs: 3_600_000, log });
    cleanup.push(() => resync.stop());
    await resync.start();
    await waitFor(() => runs.size === 200, { what: 'the first resync', timeoutMs: 30_000 });
    runs.clear();
    for (const k of all.slice(0, 100)) q.add(k);
    set.master.kill9();
    for (const k of all.slice(100)) q.add(k);
    await waitFor(
      () =>
        cli(set.sentinel.port, ['SENTINEL', 'get-master-addr-by-name', 'mymaster']).includes(String(set.replica.port)),
      {
        what: 'the sentinel promoting the replica',
        timeoutMs: 30_000,
      },
    );
    await waitFor(() => all.every((k) => runs.has(k)), {
      what: `every key reconciled after the failover (have ${runs.size})`,
      timeoutMs: 60_000,
    });
    expect(cli(set.replica.port, ['ROLE']).split('\n')[0]).toBe('master');
  });

  it('on a Cluster: every key of the queue hashes to one slot, and the queue works across the nodes', async () => {
    const cluster = await clusterOfThree();
    cleanup.push(cluster.stop);
    const url = `redis+cluster://${cluster.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`;
    await checkRedis(url);
    const { q, runs } = countingQueue(url);
    for (const k of keys(100)) q.add(k);
    await waitFor(() => runs.size === 100, {
      what: `100 keys reconciled on the cluster (have ${runs.size})`,
      timeoutMs: 30_000,
    });
    // BullMQ's keys live under the hash tag, all on the node that owns its slot.
    const slot = Number(cli(cluster.nodes[0]!.port, ['CLUSTER', 'KEYSLOT', '{flowops}']));
    const holders = cluster.nodes.filter((n) => Number(cli(n.port, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)])) > 0);
    expect(holders).toHaveLength(1);
    const stray = (await Promise.all(cluster.nodes.map((n) => cli(n.port, ['--scan', '--pattern', 'flowops*']))))
      .join('\n')
      .trim();
    expect(stray).toBe('');
  });
});
