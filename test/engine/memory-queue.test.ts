import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
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
  return { handler, runs, gates, maxSameKey: () => maxSameKey, releaseAll: () => gates.splice(0).forEach((g) => g()) };
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
    q.start(async () => {
      calls++;
      if (calls < 3) throw new Error('boom');
    }, { concurrency: 1 });
    q.add('x');
    await waitFor(() => calls === 3);
    await waitFor(() => q.depth() === 0);
    await q.stop();
  });
});
