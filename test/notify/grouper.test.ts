import { describe, expect, it } from 'vitest';
import type { NotifyEvent } from '../../src/notify/index.js';
import { Grouper, type Group } from '../../src/notify/grouper.js';
import { waitFor } from '../helpers/wait.js';

const ev = (name: string, reason = 'ReconcileStalled', revision?: string): NotifyEvent => ({
  involved: { apiVersion: 'v1', kind: 'ConfigMap', name, namespace: 'default' },
  severity: 'error',
  reason,
  message: `${name} failed`,
  ...(revision ? { revision } : {}),
  time: new Date().toISOString(),
});

describe('grouping and suppression', () => {
  it('groups per commit, counts past what it keeps, and drops repeats within the suppression window', async () => {
    const flushed: Group[] = [];
    const g = new Grouper((group) => flushed.push(group));
    for (let i = 0; i < 1500; i++) g.add({ alert: 'ns/a' }, ev(`cm-${i}`), 60_000, 60_000);
    g.add({ alert: 'ns/a' }, ev('cm-0'), 60_000, 60_000);
    g.add({ alert: 'ns/a', revision: 'main@sha1:1' }, ev('x', 'Applied', 'main@sha1:1'), 60_000, 60_000);
    g.add({ alert: 'ns/b' }, ev('cm-0'), 60_000, 60_000);
    expect(flushed).toEqual([]);
    g.flushAll();
    const summary = flushed.map((f) => `${f.key.alert}|${f.key.revision ?? '-'}|${f.total}|${f.events.length}`).sort();
    expect(summary).toEqual(['ns/a|-|1500|1000', 'ns/a|main@sha1:1|1|1', 'ns/b|-|1|1']);
  });

  it('closes a group once no event came for the window', async () => {
    const flushed: Group[] = [];
    const g = new Grouper((group) => flushed.push(group));
    g.add({ alert: 'ns/a' }, ev('one'), 50, 0);
    g.add({ alert: 'ns/a' }, ev('two'), 50, 0);
    await waitFor(() => flushed.length === 1, { what: 'the group to close' });
    expect(flushed[0]!.total).toBe(2);
  });
});
