import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { WatchBudget, type BudgetedWatch } from '../../src/apiserver/http/watch-budget.js';

/** A watch whose response holds `buffered` unsent bytes (all the budget reads of a response). */
function watch(name: string, buffered: number, dropped: string[]): BudgetedWatch & { res: { writableLength: number } } {
  const res = Object.assign(new EventEmitter(), { writableLength: buffered });
  return {
    res: res as unknown as ServerResponse & { writableLength: number },
    resource: name,
    drop: () => dropped.push(name),
  };
}

describe('WatchBudget', () => {
  it('drops one watch over its own limit and nothing else', () => {
    const dropped: string[] = [];
    const counted: string[] = [];
    const budget = new WatchBudget({ perWatchBytes: 100, totalBytes: 1000 }, (r) => counted.push(r));
    const a = watch('a', 50, dropped);
    const b = watch('b', 101, dropped);
    budget.add(a);
    budget.add(b);
    budget.check(a);
    expect(dropped).toEqual([]);
    budget.check(b);
    expect(dropped).toEqual(['b']);
    expect(counted).toEqual(['b']);
    budget.check(b);
    expect(dropped).toEqual(['b']);
    expect(budget.size).toBe(1);
  });

  it('over the total, drops the watches holding the most first until under it', () => {
    const dropped: string[] = [];
    const budget = new WatchBudget({ perWatchBytes: 1000, totalBytes: 500 }, () => undefined);
    const ws = [
      watch('small', 100, dropped),
      watch('largest', 400, dropped),
      watch('middle', 250, dropped),
      watch('tiny', 10, dropped),
    ];
    for (const w of ws) budget.add(w);
    for (const w of ws) budget.check(w);
    // 760 held: dropping "largest" leaves 360, under 500.
    expect(dropped).toEqual(['largest']);
    ws[2]!.res.writableLength = 600;
    budget.check(ws[2]!);
    expect(dropped).toEqual(['largest', 'middle']);
  });

  it('counts a drained watch as holding nothing until it is looked at again', () => {
    const dropped: string[] = [];
    const budget = new WatchBudget({ perWatchBytes: 1000, totalBytes: 500 }, () => undefined);
    const a = watch('a', 400, dropped);
    const b = watch('b', 300, dropped);
    budget.add(a);
    budget.add(b);
    budget.check(a);
    a.res.writableLength = 0;
    (a.res as unknown as EventEmitter).emit('drain');
    budget.check(b);
    expect(dropped).toEqual([]);
    a.res.writableLength = 400;
    budget.check(a);
    expect(dropped).toEqual(['a']);
  });

  it('forgets a watch once it unregisters', () => {
    const dropped: string[] = [];
    const budget = new WatchBudget({ perWatchBytes: 10, totalBytes: 10 }, () => undefined);
    const w = watch('w', 50, dropped);
    budget.add(w)();
    budget.check(watch('other', 0, dropped));
    expect(dropped).toEqual([]);
  });
});
