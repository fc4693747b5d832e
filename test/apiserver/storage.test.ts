import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteLogStore } from '../../src/apiserver/storage/sqlite-log.js';
import { CompactedError, KeyExistsError, RevisionConflictError, type StoreEvent } from '../../src/apiserver/storage/types.js';

const file = (): string => join(mkdtempSync(join(tmpdir(), 'flowops-store-')), 'state.db');
const v = (s: string) => (rev: number) => JSON.stringify({ s, rev });

describe('SQLite revision log', () => {
  it('sends a watch started between a write and its commit that write exactly once', async () => {
    const s = new SqliteLogStore(file());
    const a = s.create('/registry/x/things/a', v('1'));
    await s.sync();
    s.update(a.key, a.modRevision, v('2'));
    const events: StoreEvent[] = [];
    s.watch('/registry/x/', a.modRevision, (e) => events.push(e));
    await s.sync();
    expect(events.map((e) => e.revision)).toEqual([a.modRevision + 1]);
    s.close();
  });

  it('gives every write a new global revision and guards updates by revision', () => {
    const s = new SqliteLogStore(file());
    const a = s.create('/registry/core/configmaps/ns/a', v('a1'));
    const b = s.create('/registry/core/configmaps/ns/b', v('b1'));
    expect(b.modRevision).toBe(a.modRevision + 1);
    expect(() => s.create('/registry/core/configmaps/ns/a', v('again'))).toThrow(KeyExistsError);
    expect(() => s.update(a.key, a.modRevision + 100, v('x'))).toThrow(RevisionConflictError);
    const a2 = s.update(a.key, a.modRevision, v('a2'));
    expect(a2.createRevision).toBe(a.modRevision);
    expect(s.list('/registry/core/configmaps/').items.map((i) => i.key)).toEqual([a.key, b.key]);
    s.close();
  });

  it('replays history after a revision, then streams live writes once they are committed', async () => {
    const s = new SqliteLogStore(file());
    const a = s.create('/registry/x/things/a', v('1'));
    s.update(a.key, a.modRevision, v('2'));
    s.create('/registry/y/other/b', v('ignored'));
    await s.sync();
    const events: StoreEvent[] = [];
    s.watch('/registry/x/', a.modRevision, (e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(['update']);
    expect(JSON.parse(events[0]!.prevValue!).s).toBe('1');
    const cur = s.get(a.key)!;
    s.delete(a.key, cur.modRevision, v('last'));
    // Group commit: the event is published when the write is durable, not before.
    expect(events.map((e) => e.type)).toEqual(['update']);
    await s.sync();
    expect(events.map((e) => e.type)).toEqual(['update', 'delete']);
    expect(JSON.parse(events[1]!.value).s).toBe('last');
    s.close();
  });

  it('compacts superseded rows, answers old revisions with CompactedError, and keeps current values', () => {
    const path = file();
    const s = new SqliteLogStore(path);
    let cur = s.create('/registry/x/things/a', v('0'));
    for (let i = 1; i < 10; i++) cur = s.update(cur.key, cur.modRevision, v(String(i)));
    const gone = s.create('/registry/x/things/gone', v('g'));
    const tomb = s.delete(gone.key, gone.modRevision, v('g-last'));
    s.compact(tomb.modRevision);
    expect(() => s.watch('/registry/x/', 2, () => undefined)).toThrow(CompactedError);
    expect(() => s.list('/registry/x/', { revision: 3 })).toThrow(CompactedError);
    expect(JSON.parse(s.get(cur.key)!.value).s).toBe('9');
    const rev = s.currentRevision();
    s.close();
    // The latest row was a compacted tombstone: the revision must still not go backwards.
    const reopened = new SqliteLogStore(path);
    expect(reopened.currentRevision()).toBe(rev);
    expect(reopened.compactRevision()).toBe(tomb.modRevision);
    expect(reopened.list('/registry/x/').items.map((i) => i.key)).toEqual([cur.key]);
    expect(reopened.create('/registry/x/things/new', v('n')).modRevision).toBe(rev + 1);
    reopened.close();
  });

  it('lists a past revision from the log and pages with startAfter', () => {
    const s = new SqliteLogStore(file());
    for (const n of ['a', 'b', 'c', 'd']) s.create(`/registry/x/things/${n}`, v(n));
    const at = s.currentRevision();
    s.delete('/registry/x/things/b', 0, v('b-del'));
    const b = s.get('/registry/x/things/c')!;
    s.update(b.key, b.modRevision, v('c2'));
    const past = s.list('/registry/x/', { revision: at });
    expect(past.items.map((i) => JSON.parse(i.value).s)).toEqual(['a', 'b', 'c', 'd']);
    const page = s.list('/registry/x/', { revision: at, startAfter: '/registry/x/things/b', limit: 1 });
    expect(page.items.map((i) => JSON.parse(i.value).s)).toEqual(['c']);
    expect(page.more).toBe(true);
    const now = s.list('/registry/x/', { limit: 2 });
    expect(now.items.map((i) => JSON.parse(i.value).s)).toEqual(['a', 'c2']);
    expect(now.more).toBe(true);
    s.close();
  });

  it('refuses a second store on the same file', () => {
    const path = file();
    const s = new SqliteLogStore(path);
    expect(() => new SqliteLogStore(path)).toThrow();
    s.close();
  });
});
