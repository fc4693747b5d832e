import { describe, expect, it } from 'vitest';
import { failed, runReconcile, stalled, success, UNEXPECTED, waiting } from '../../src/reconcile/index.js';
import type { ReconcileResult, SubStep } from '../../src/reconcile/index.js';

interface State {
  ran: string[];
  summaries: Array<{ result: ReconcileResult; endedBy: string | undefined }>;
}

const step = (name: string, out?: ReconcileResult): SubStep<State> => ({
  name,
  run: async (s) => {
    s.ran.push(name);
    return out;
  },
});

const summarise = async (s: State, result: ReconcileResult, endedBy: string | undefined) => {
  s.summaries.push({ result, endedBy });
  return result;
};

describe('the reconcile kit runner', () => {
  it('runs every sub-step in order and summarises once with a success', async () => {
    const s: State = { ran: [], summaries: [] };
    const result = await runReconcile([step('finalizer'), step('steps'), step('judge'), step('prune')], s, summarise);
    expect(s.ran).toEqual(['finalizer', 'steps', 'judge', 'prune']);
    expect(result).toEqual({ kind: 'success' });
    expect(s.summaries).toEqual([{ result: { kind: 'success' }, endedBy: undefined }]);
  });

  it('stops at the first sub-step with a result and summarises with it', async () => {
    const results = [stalled('InvalidSpec', 'x'), waiting(500, 'Kind'), failed('ApplyFailed', 'y'), success(60_000)];
    for (const out of results) {
      const s: State = { ran: [], summaries: [] };
      const result = await runReconcile([step('a'), step('b', out), step('c')], s, summarise);
      expect(s.ran).toEqual(['a', 'b']);
      expect(result).toEqual(out);
      expect(s.summaries).toEqual([{ result: out, endedBy: 'b' }]);
    }
  });

  it('lets the summary turn the result into another (a success learning its resync time)', async () => {
    const s: State = { ran: [], summaries: [] };
    const result = await runReconcile([step('a')], s, async () => success(30_000));
    expect(result).toEqual({ kind: 'success', requeueAfterMs: 30_000 });
  });

  it('summarises a throwing sub-step as an Unexpected error, then lets the exception go on', async () => {
    const s: State = { ran: [], summaries: [] };
    const boom: SubStep<State> = { name: 'boom', run: async () => Promise.reject(new Error('socket hang up')) };
    await expect(runReconcile([step('a'), boom, step('c')], s, summarise)).rejects.toThrow('socket hang up');
    expect(s.ran).toEqual(['a']);
    const result = { kind: 'error', code: UNEXPECTED, message: 'socket hang up' };
    expect(s.summaries).toEqual([{ result, endedBy: 'boom' }]);
  });

  it('keeps a waiting time of at least a millisecond and a success without one as no requeue', () => {
    expect(waiting(0, 'Now')).toEqual({ kind: 'waiting', requeueAfterMs: 1, reason: 'Now' });
    expect(success(0)).toEqual({ kind: 'success' });
  });
});
