import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import { failed, stalled, success, waiting } from '../../src/reconcile/index.js';
import { waitFor } from '../helpers/wait.js';

const log = pino({ level: 'silent' });

/** A handler whose runs are released by the test, to control interleavings exactly. */
function gatedHandler() {
  const running = new Map<string, number>();
  let maxSameKey = 0;
  const runs: string[] = [];
  const gates: Array<() => void> = [];
  const handler = async (key: string): Promise<void> => {
    const n = (running.get(key) ?? 0) + 1;
    running.set(key, n);
    maxSameKey = Math.max(maxSameKey, n);
    runs.push(key);
    await new Promise<void>((r) => gates.push(r));
    running.set(key, running.get(key)! - 1);
  };
  return {
    handler,
    runs,
    gates,
    maxSameKey: () => maxSameKey,
    releaseAll: () => {
      for (const g of gates.splice(0)) g();
    },
  };
}

describe('in-process queue contract', () => {
  it('coalesces a burst of adds for a waiting key into one run', async () => {
    const q = new MemoryQueue(log);
    const h = gatedHandler();
    for (let i = 0; i < 50; i++) q.add('a');
    q.start(h.handler, { concurrency: 4 });
    await waitFor(() => h.runs.length === 1);
    h.releaseAll();
    await waitFor(() => q.depth() === 0);
    expect(h.runs).toEqual(['a']);
    await q.stop();
  });

  it('never runs a key twice at once; a change during a run causes exactly one more run', async () => {
    const q = new MemoryQueue(log);
    const h = gatedHandler();
    q.start(h.handler, { concurrency: 4 });
    q.add('k');
    await waitFor(() => h.runs.length === 1);
    for (let i = 0; i < 10; i++) q.add('k');
    q.add('other');
    await waitFor(() => h.runs.length === 2);
    expect(h.runs).toEqual(['k', 'other']);
    h.releaseAll();
    await waitFor(() => h.runs.length === 3);
    expect(h.runs[2]).toBe('k');
    h.releaseAll();
    await waitFor(() => q.depth() === 0);
    expect(h.runs.filter((k) => k === 'k')).toHaveLength(2);
    expect(h.maxSameKey()).toBe(1);
    await q.stop();
  });

  it('retries a failing key with backoff and forgets failures after a success', async () => {
    const q = new MemoryQueue(log, { baseMs: 10, maxMs: 40 });
    let calls = 0;
    q.start(
      async () => {
        calls++;
        if (calls < 3) throw new Error('boom');
      },
      { concurrency: 1 },
    );
    q.add('x');
    await waitFor(() => calls === 3);
    await waitFor(() => q.depth() === 0);
    await q.stop();
  });

  it('forget cancels a waiting retry: the key runs only when added again', async () => {
    vi.useFakeTimers();
    try {
      const q = new MemoryQueue(log, { baseMs: 1_000, maxMs: 1_000 });
      const runs: string[] = [];
      q.start(
        async (key) => {
          runs.push(key);
          throw new Error('boom');
        },
        { concurrency: 1 },
      );
      q.add('x');
      q.add('y');
      await q.whenDrained();
      q.forget('x');
      // A second later y's retry runs, x's was cancelled.
      await vi.advanceTimersByTimeAsync(1_000);
      await q.whenDrained();
      expect(runs).toEqual(['x', 'y', 'y']);
      q.add('x');
      await q.whenDrained();
      expect(runs).toEqual(['x', 'y', 'y', 'x']);
      await q.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('whenDrained resolves once every waiting and running key has run', async () => {
    const q = new MemoryQueue(log);
    const h = gatedHandler();
    q.start(h.handler, { concurrency: 1 });
    q.add('a');
    q.add('b');
    let drained = false;
    const done = q.whenDrained().then(() => (drained = true));
    await waitFor(() => h.gates.length === 1);
    h.releaseAll();
    await waitFor(() => h.gates.length === 1 && h.runs.length === 2);
    expect(drained).toBe(false);
    h.releaseAll();
    await done;
    expect(h.runs).toEqual(['a', 'b']);
    await q.stop();
  });
});

describe('the queue honours the closed result set (src/reconcile/result.ts)', () => {
  /** Each run's time per key, and a handler answering what `answer` says for run n (1-based). */
  function timed(answer: (key: string, n: number) => ReturnType<typeof success> | undefined) {
    const runs = new Map<string, number[]>();
    const handler = async (key: string) => {
      const list = runs.get(key) ?? [];
      list.push(performance.now());
      runs.set(key, list);
      return answer(key, list.length);
    };
    return { handler, runs: (key: string) => runs.get(key) ?? [] };
  }

  it('does not retry a stalled result; the next add runs the key again', async () => {
    const q = new MemoryQueue(log, { baseMs: 5, maxMs: 5 });
    const answer = (key: string, n: number) =>
      key === 'stuck' && n === 1 ? stalled('InvalidSpec', 'spec.x: expected a string') : undefined;
    const h = timed(answer);
    q.start(h.handler, { concurrency: 2 });
    q.add('stuck');
    await waitFor(() => h.runs('stuck').length === 1 && q.depth() === 0, { what: 'the stalled run done' });
    // A failing key with this backoff would have run again many times over while another key runs 20 times.
    for (let i = 0; i < 20; i++) {
      q.add('other');
      await waitFor(() => h.runs('other').length === i + 1 && q.depth() === 0, { what: `other run ${i + 1}` });
    }
    expect(h.runs('stuck')).toHaveLength(1);
    q.add('stuck');
    await waitFor(() => h.runs('stuck').length === 2, { what: 'the stalled key run again on add' });
    await q.stop();
  });

  it('requeues a waiting result after its time, without backoff', async () => {
    const q = new MemoryQueue(log, { baseMs: 5_000, maxMs: 5_000 });
    const h = timed((_key, n) => (n < 3 ? waiting(60, 'ChildrenComing') : undefined));
    q.start(h.handler, { concurrency: 1 });
    q.add('w');
    await waitFor(() => h.runs('w').length === 3, { what: 'two requeues after the waiting time' });
    const [a = 0, b = 0, c = 0] = h.runs('w');
    // Each gap is the asked 60 ms (timers may fire up to a millisecond early), not the 5 s backoff.
    expect(b - a).toBeGreaterThanOrEqual(59);
    expect(c - b).toBeGreaterThanOrEqual(59);
    expect(c - a).toBeLessThan(5_000);
    await q.stop();
  });

  it('retries an error result with growing backoff, and a success after it forgets the failures', async () => {
    const q = new MemoryQueue(log, { baseMs: 40, maxMs: 1_000 });
    const h = timed((_key, n) => (n <= 3 || n === 5 ? failed('ApplyFailed', 'the server said 409') : success()));
    q.start(h.handler, { concurrency: 1 });
    q.add('e');
    await waitFor(() => h.runs('e').length === 4, { what: 'three retries' });
    const [a = 0, b = 0, c = 0, d = 0] = h.runs('e');
    expect(b - a).toBeGreaterThanOrEqual(39);
    expect(c - b).toBeGreaterThanOrEqual(79);
    expect(d - c).toBeGreaterThanOrEqual(159);
    await waitFor(() => q.depth() === 0, { what: 'the success done' });
    // After the success the next failure starts the backoff again from its base.
    q.add('e');
    await waitFor(() => h.runs('e').length === 6, { what: 'a new failure retried' });
    const [, , , , e = 0, f = 0] = h.runs('e');
    expect(f - e).toBeGreaterThanOrEqual(39);
    expect(f - e).toBeLessThan(300);
    await q.stop();
  });

  it('requeues a success with requeueAfterMs (a resync) after that time', async () => {
    const q = new MemoryQueue(log);
    const h = timed((_key, n) => (n === 1 ? success(50) : undefined));
    q.start(h.handler, { concurrency: 1 });
    q.add('s');
    await waitFor(() => h.runs('s').length === 2, { what: 'the resync run' });
    const [a = 0, b = 0] = h.runs('s');
    expect(b - a).toBeGreaterThanOrEqual(49);
    await q.stop();
  });
});
