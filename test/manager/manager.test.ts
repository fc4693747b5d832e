import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Manager, stopOnly, type Runnable } from '../../src/manager/index.js';

const log = pino({ level: 'silent' });

function part(
  name: string,
  seen: string[],
  opts: { failStart?: boolean; failStop?: boolean; ready?: () => boolean } = {},
): Runnable {
  return {
    name,
    start: async () => {
      await Promise.resolve();
      if (opts.failStart) throw new Error(`${name} cannot start`);
      seen.push(`start ${name}`);
    },
    stop: async () => {
      seen.push(`stop ${name}`);
      if (opts.failStop) throw new Error(`${name} cannot stop`);
    },
    ...(opts.ready ? { ready: opts.ready } : {}),
  };
}

describe('Manager', () => {
  it('starts the parts in the order added and stops them in the reverse one, once', async () => {
    const seen: string[] = [];
    const m = new Manager(log);
    for (const n of ['api', 'cache', 'reconciles']) await m.add(part(n, seen));
    await m.start();
    await m.stop();
    await m.stop();
    expect(seen).toEqual(['start api', 'start cache', 'start reconciles', 'stop reconciles', 'stop cache', 'stop api']);
  });

  it('stops the parts already started when one fails to start, and rethrows', async () => {
    const seen: string[] = [];
    const m = new Manager(log);
    await m.add(part('api', seen));
    await m.add(part('cache', seen, { failStart: true }));
    await m.add(part('reconciles', seen));
    await expect(m.start()).rejects.toThrow('cache cannot start');
    expect(seen).toEqual(['start api', 'stop api']);
    expect(m.ready()).toBe(false);
  });

  it('goes on stopping the others when one part fails to stop', async () => {
    const seen: string[] = [];
    const m = new Manager(log);
    await m.add(part('api', seen));
    await m.add(part('cache', seen, { failStop: true }));
    await m.add(stopOnly('listener', () => void seen.push('stop listener')));
    await m.start();
    await m.stop();
    expect(seen).toEqual(['start api', 'start cache', 'stop listener', 'stop cache', 'stop api']);
  });

  it('is ready only once every part has started and each says it is ready (caches synced)', async () => {
    let synced = false;
    const m = new Manager(log);
    await m.add(part('api', []));
    await m.add(part('cache', [], { ready: () => synced }));
    expect(m.ready()).toBe(false);
    await m.start();
    expect(m.ready()).toBe(false);
    expect(m.notReady()).toEqual(['cache']);
    synced = true;
    expect(m.ready()).toBe(true);
    await m.stop();
    expect(m.ready()).toBe(false);
  });

  it('starts a part added while it runs at once, and stops it first', async () => {
    const seen: string[] = [];
    const m = new Manager(log);
    await m.add(part('api', seen));
    await m.start();
    await m.add(part('late', seen));
    await m.stop();
    expect(seen).toEqual(['start api', 'start late', 'stop late', 'stop api']);
  });
});
