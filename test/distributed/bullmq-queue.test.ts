import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { BullQueue } from '../../src/queue/bullmq-queue.js';
import { failed, stalled, waiting } from '../../src/reconcile/index.js';
import { redisUrl } from '../../src/queue/redis-connection.js';
import { waitFor } from '../helpers/wait.js';

const log = pino({ level: 'silent' });
const open: BullQueue[] = [];

/** A queue on its own name, so test files and runs never share jobs. */
function queue(name: string): BullQueue {
  const q = new BullQueue({
    redisUrl: redisUrl(),
    name,
    prefix: 'flowops-test',
    log,
    backoff: { baseMs: 50, maxMs: 400 },
    lockDurationMs: 5000,
  });
  open.push(q);
  return q;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(async () => {
  for (const q of open.splice(0)) {
    await q.consumer.stop();
    await q.producer.queue.obliterate({ force: true }).catch(() => undefined);
    await q.producer.close();
  }
});

describe('BullQueue (the WorkQueue contract on BullMQ and a real Redis)', () => {
  it('coalesces adds of a waiting key into one run', async () => {
    const q = queue(`coalesce-${randomUUID()}`);
    for (let i = 0; i < 10; i++) q.add('a');
    q.add('b');
    await q.producer.queue.waitUntilReady();
    await waitFor(async () => (await q.producer.depthNow()) === 2, { what: 'two jobs queued' });
    const runs: string[] = [];
    q.start(async (k) => void runs.push(k), { concurrency: 4 });
    await waitFor(() => runs.length === 2);
    await sleep(200);
    expect(runs.sort()).toEqual(['a', 'b']);
  });

  it('an add while the key runs causes exactly one more run', async () => {
    const q = queue(`during-${randomUUID()}`);
    let runs = 0;
    let release: () => void = () => undefined;
    q.start(
      async () => {
        runs++;
        if (runs === 1) await new Promise<void>((r) => (release = r));
      },
      { concurrency: 4 },
    );
    q.add('k');
    await waitFor(() => runs === 1, { what: 'first run' });
    for (let i = 0; i < 5; i++) q.add('k');
    await sleep(150);
    release();
    await waitFor(() => runs === 2, { what: 'second run' });
    await sleep(300);
    expect(runs).toBe(2);
  });

  it('never runs a key on two consumers at once, and the last run follows the last add', async () => {
    const name = `serial-${randomUUID()}`;
    const a = queue(name);
    const b = queue(name);
    const active = new Map<string, number>();
    let maxActive = 0;
    const lastStart = new Map<string, number>();
    const handler = async (k: string) => {
      const n = (active.get(k) ?? 0) + 1;
      active.set(k, n);
      maxActive = Math.max(maxActive, n);
      lastStart.set(k, Date.now());
      await sleep(15);
      active.set(k, n - 1);
    };
    a.start(handler, { concurrency: 10 });
    b.start(handler, { concurrency: 10 });
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4'];
    let lastAdd = 0;
    for (let burst = 0; burst < 20; burst++) {
      for (const k of keys) a.add(k);
      lastAdd = Date.now();
      await sleep(5);
    }
    await waitFor(async () => (await a.producer.depthNow()) === 0 && [...active.values()].every((n) => n === 0), {
      what: 'queue drained',
    });
    expect(maxActive).toBe(1);
    for (const k of keys) expect(lastStart.get(k)!).toBeGreaterThanOrEqual(lastAdd - 5);
  });

  it('after overlapping bulk adds, every later add of a finished key runs it again (no dedup id outlives its job)', async () => {
    const q = queue(`bulk-${randomUUID()}`);
    const runs = new Map<string, number>();
    q.start(
      async (k) => {
        runs.set(k, (runs.get(k) ?? 0) + 1);
        await sleep(10);
      },
      { concurrency: 4 },
    );
    const keys = ['a', 'b', 'c'];
    for (let round = 0; round < 8; round++) {
      // Overlapping resyncs, as at leader start: some land while the keys are waiting, some while active.
      await q.producer.addAll(keys);
      await q.producer.addAll(keys);
      await waitFor(async () => (await q.producer.depthNow()) === 0, { what: `round ${round} drained` });
      const before = new Map(runs);
      await q.producer.addAll(keys);
      await waitFor(() => keys.every((k) => (runs.get(k) ?? 0) > (before.get(k) ?? 0)), {
        what: `round ${round}: every key runs after the add`,
      });
    }
  });

  it('addAfter runs the key after the delay', async () => {
    const q = queue(`delay-${randomUUID()}`);
    const t0 = Date.now();
    let ranAt = 0;
    q.start(async () => void (ranAt = Date.now()), { concurrency: 1 });
    q.addAfter('d', 400);
    await waitFor(() => ranAt > 0, { what: 'delayed run' });
    expect(ranAt - t0).toBeGreaterThanOrEqual(380);
  });

  it('retries a failing key with backoff, and a stalled one only once', async () => {
    const q = queue(`retry-${randomUUID()}`);
    const attempts = new Map<string, number[]>();
    q.start(
      async (k) => {
        const list = attempts.get(k) ?? [];
        list.push(Date.now());
        attempts.set(k, list);
        if (k === 'flaky' && list.length < 3) throw new Error('transient');
        if (k === 'invalid') return stalled('InvalidSpec', 'bad definition');
        return undefined;
      },
      { concurrency: 2 },
    );
    q.add('flaky');
    q.add('invalid');
    await waitFor(() => attempts.get('flaky')?.length === 3, { what: 'three attempts' });
    await sleep(300);
    const t = attempts.get('flaky')!;
    expect(t[1]! - t[0]!).toBeGreaterThanOrEqual(40);
    expect(t[2]! - t[1]!).toBeGreaterThanOrEqual(90);
    expect(attempts.get('invalid')).toHaveLength(1);
  });

  it('a handler asking for requeueAfter runs again after that delay', async () => {
    const q = queue(`requeue-${randomUUID()}`);
    const times: number[] = [];
    q.start(
      async () => {
        times.push(Date.now());
        return times.length === 1 ? waiting(300, 'NotYet') : undefined;
      },
      { concurrency: 1 },
    );
    q.add('r');
    await waitFor(() => times.length === 2, { what: 'requeued run' });
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(280);
  });

  it('retries an error result with backoff until it succeeds; a stalled key runs again only when added', async () => {
    const q = queue(`results-${randomUUID()}`);
    const attempts = new Map<string, number[]>();
    q.start(
      async (k) => {
        const list = attempts.get(k) ?? [];
        list.push(Date.now());
        attempts.set(k, list);
        if (k === 'flaky') return list.length < 3 ? failed('ApplyFailed', 'conflict') : undefined;
        return list.length === 1 ? stalled('InvalidSpec', 'bad definition') : undefined;
      },
      { concurrency: 2 },
    );
    q.add('flaky');
    q.add('stuck');
    await waitFor(() => attempts.get('flaky')?.length === 3, { what: 'three attempts of the error result' });
    const t = attempts.get('flaky') ?? [];
    expect((t[1] ?? 0) - (t[0] ?? 0)).toBeGreaterThanOrEqual(40);
    expect((t[2] ?? 0) - (t[1] ?? 0)).toBeGreaterThanOrEqual(90);
    expect(attempts.get('stuck')).toHaveLength(1);
    // The next change of a stalled key brings it back (its job completed; nothing holds its id).
    q.add('stuck');
    await waitFor(() => attempts.get('stuck')?.length === 2, { what: 'the stalled key run again on add' });
  });
});
