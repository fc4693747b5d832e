import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  BadCacheLimitsError,
  CompactedError,
  MemoryBackend,
  openSqliteBackend,
  type Backend,
  type StoreEvent,
  type StoredValue,
  type WriteResult,
} from '../../src/apiserver/storage/index.js';
import { LogStructured } from '../../src/apiserver/storage/log-structured.js';
import { SqliteLog } from '../../src/apiserver/storage/sqlite/sqlite-log.js';

const file = (): string => join(mkdtempSync(join(tmpdir(), 'flowops-store-')), 'state.db');
const v = (s: string) => (rev: number) => JSON.stringify({ s, rev });
const sOf = (text: string): unknown => (JSON.parse(text) as { s: unknown }).s;
const prevOf = (e: StoreEvent): unknown => (e.prevValue === undefined ? undefined : sOf(e.prevValue));

/** The stored value of a write that must have succeeded. */
function ok(r: WriteResult): StoredValue {
  if (r.outcome !== 'written') throw new Error(`expected the write to succeed, got ${r.outcome}`);
  return r.stored;
}

const backends: Array<[string, () => Backend]> = [
  ['SQLite', () => openSqliteBackend(file())],
  ['in-memory', () => new MemoryBackend()],
];

describe.each(backends)('storage backend: %s', (_name, open) => {
  it('sends a watch started between a write and its commit that write exactly once', async () => {
    const s = open();
    const a = ok(s.create('/registry/x/things/a', v('1')));
    await s.sync();
    ok(s.update(a.key, a.modRevision, v('2')));
    const events: StoreEvent[] = [];
    s.watch('/registry/x/', a.modRevision, (e) => events.push(e));
    await s.sync();
    expect(events.map((e) => e.revision)).toEqual([a.modRevision + 1]);
    s.close();
  });

  it('gives every write a new global revision; a lost compare-and-swap is an answer, not a throw', () => {
    const s = open();
    const a = ok(s.create('/registry/core/configmaps/ns/a', v('a1')));
    const b = ok(s.create('/registry/core/configmaps/ns/b', v('b1')));
    expect(b.modRevision).toBe(a.modRevision + 1);
    expect(s.create('/registry/core/configmaps/ns/a', v('again'))).toEqual({ outcome: 'exists', current: a });
    expect(s.update(a.key, a.modRevision + 100, v('x'))).toEqual({ outcome: 'conflict', current: a });
    expect(s.delete(a.key, a.modRevision + 100, v('x'))).toEqual({ outcome: 'conflict', current: a });
    expect(s.update('/registry/core/configmaps/ns/none', 1, v('x'))).toEqual({ outcome: 'not-found' });
    expect(s.delete('/registry/core/configmaps/ns/none', 0, v('x'))).toEqual({ outcome: 'not-found' });
    // Nothing was written by the misses.
    expect(s.currentRevision()).toBe(b.modRevision);
    const a2 = ok(s.update(a.key, a.modRevision, v('a2')));
    expect(a2.createRevision).toBe(a.modRevision);
    expect(s.list('/registry/core/configmaps/').items.map((i) => i.key)).toEqual([a.key, b.key]);
    expect(s.count('/registry/core/configmaps/')).toBe(2);
    s.close();
  });

  it('replays history after a revision, then streams live writes once they are committed', async () => {
    const s = open();
    const a = ok(s.create('/registry/x/things/a', v('1')));
    ok(s.update(a.key, a.modRevision, v('2')));
    ok(s.create('/registry/y/other/b', v('ignored')));
    await s.sync();
    const events: StoreEvent[] = [];
    s.watch('/registry/x/', a.modRevision, (e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(['update']);
    expect(sOf(events[0]?.prevValue ?? '{}')).toBe('1');
    const cur = s.get(a.key);
    if (!cur) throw new Error('the key is gone');
    ok(s.delete(a.key, cur.modRevision, v('last')));
    // Group commit: the event is published when the write is durable, not before.
    expect(events.map((e) => e.type)).toEqual(['update']);
    await s.sync();
    expect(events.map((e) => e.type)).toEqual(['update', 'delete']);
    expect(sOf(events[1]?.value ?? '{}')).toBe('last');
    s.close();
  });

  it('replays a key deleted and created again: the create carries no previous value', async () => {
    const s = open();
    const a = ok(s.create('/registry/x/things/a', v('1')));
    ok(s.create('/registry/x/things/b', v('b')));
    ok(s.delete(a.key, a.modRevision, v('1-last')));
    const again = ok(s.create(a.key, v('2')));
    expect(again.createRevision).toBe(again.modRevision);
    ok(s.update(again.key, again.modRevision, v('3')));
    await s.sync();
    const events: StoreEvent[] = [];
    s.watch('/registry/x/things/a', 0, (e) => events.push(e));
    expect(events.map((e) => [e.type, sOf(e.value), prevOf(e)])).toEqual([
      ['create', '1', undefined],
      ['delete', '1-last', '1'],
      ['create', '2', undefined],
      ['update', '3', '2'],
    ]);
    s.close();
  });

  it('compacts superseded rows, answers old revisions with CompactedError, and keeps current values', async () => {
    const s = open();
    let cur = ok(s.create('/registry/x/things/a', v('0')));
    for (let i = 1; i < 10; i++) cur = ok(s.update(cur.key, cur.modRevision, v(String(i))));
    const kept = ok(s.create('/registry/x/things/kept', v('k')));
    const gone = ok(s.create('/registry/x/things/gone', v('g')));
    const tomb = ok(s.delete(gone.key, gone.modRevision, v('g-last')));
    s.compact(tomb.modRevision);
    expect(s.compactRevision()).toBe(tomb.modRevision);
    expect(() => s.watch('/registry/x/', 2, () => undefined)).toThrow(CompactedError);
    expect(() => s.list('/registry/x/', { revision: 3 })).toThrow(CompactedError);
    expect(sOf(s.get(cur.key)?.value ?? '{}')).toBe('9');
    const after = ok(s.update(kept.key, kept.modRevision, v('k2')));
    await s.sync();
    // The compaction revision itself still lists, from what compaction kept.
    const atCompaction = s.list('/registry/x/', { revision: tomb.modRevision });
    expect(atCompaction.items.map((i) => [i.key, sOf(i.value)])).toEqual([
      [cur.key, '9'],
      [kept.key, 'k'],
    ]);
    const events: StoreEvent[] = [];
    s.watch('/registry/x/', tomb.modRevision, (e) => events.push(e));
    expect(events.map((e) => [e.type, e.revision, prevOf(e)])).toEqual([['update', after.modRevision, 'k']]);
    s.close();
  });

  it('lists a past revision from the log and pages with startAfter', async () => {
    const s = open();
    for (const n of ['a', 'b', 'c', 'd']) ok(s.create(`/registry/x/things/${n}`, v(n)));
    const at = s.currentRevision();
    ok(s.delete('/registry/x/things/b', 0, v('b-del')));
    const c = s.get('/registry/x/things/c');
    if (!c) throw new Error('c is missing');
    ok(s.update(c.key, c.modRevision, v('c2')));
    const past = s.list('/registry/x/', { revision: at });
    expect(past.items.map((i) => sOf(i.value))).toEqual(['a', 'b', 'c', 'd']);
    const page = s.list('/registry/x/', { revision: at, startAfter: '/registry/x/things/b', limit: 1 });
    expect(page.items.map((i) => sOf(i.value))).toEqual(['c']);
    expect(page.more).toBe(true);
    const now = s.list('/registry/x/', { limit: 2 });
    expect(now.items.map((i) => sOf(i.value))).toEqual(['a', 'c2']);
    expect(now.more).toBe(true);
    await s.sync();
    s.close();
  });

  it('tells a watch that the backend ended it', () => {
    const s = open();
    let closed = 0;
    s.watch(
      '/registry/x/',
      s.currentRevision(),
      () => undefined,
      () => closed++,
    );
    s.endWatches();
    expect(closed).toBe(1);
    s.close();
  });
});

describe.each(backends)('storage backend reads: %s', (_name, open) => {
  const P = '/registry/core/configmaps/ns/';
  const keys = (items: StoredValue[]): string[] => items.map((i) => i.key.slice(P.length));

  it("lists and counts this turn's writes over the committed ones, paging across them", async () => {
    const s = open();
    const at: Record<string, StoredValue> = {};
    for (const k of ['a', 'b', 'c', 'd', 'e']) at[k] = ok(s.create(P + k, v(k)));
    await s.sync();
    const b = at.b;
    const c = at.c;
    if (!b || !c) throw new Error('created above');
    // Not committed yet: a delete, an update and two creates, one before and one after the rest.
    ok(s.delete(b.key, b.modRevision, v('b-last')));
    ok(s.update(c.key, c.modRevision, v('c2')));
    ok(s.create(`${P}aa`, v('aa')));
    ok(s.create(`${P}f`, v('f')));
    const rev = s.currentRevision();
    const first = s.list(P, { limit: 2 });
    expect([keys(first.items), first.more, first.revision]).toEqual([['a', 'aa'], true, rev]);
    const second = s.list(P, { limit: 2, startAfter: `${P}aa` });
    expect([keys(second.items), second.more]).toEqual([['c', 'd'], true]);
    expect(sOf(second.items[0]?.value ?? '{}')).toBe('c2');
    const third = s.list(P, { limit: 2, startAfter: `${P}d` });
    expect([keys(third.items), third.more]).toEqual([['e', 'f'], false]);
    expect(s.count(P)).toBe(6);
    expect(s.get(b.key)).toBeUndefined();
    await s.sync();
    expect(keys(s.list(P).items)).toEqual(['a', 'aa', 'c', 'd', 'e', 'f']);
    expect(s.count(P)).toBe(6);
    s.close();
  });

  it("scans in bounded windows, returning only the values holding a needle, this turn's writes too", async () => {
    const s = open();
    const names = Array.from({ length: 25 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const made: StoredValue[] = names.map((n, i) => ok(s.create(P + n, v(i % 5 === 0 ? `owned-${n}` : n))));
    await s.sync();
    // Uncommitted: one match loses its needle, one plain value gains it, one match is deleted.
    const [k00, , k02, , , k05] = made;
    if (!k00 || !k02 || !k05) throw new Error('created above');
    ok(s.update(k00.key, k00.modRevision, v('plain')));
    ok(s.update(k02.key, k02.modRevision, v('owned-now')));
    ok(s.delete(k05.key, k05.modRevision, v('owned-gone')));
    const found: string[] = [];
    let after: string | undefined;
    let windows = 0;
    do {
      const from = after !== undefined ? { startAfter: after } : {};
      const page = s.scan(P, { window: 10, containing: ['owned'], ...from });
      found.push(...keys(page.items));
      after = page.next;
      windows++;
    } while (after !== undefined && windows < 10);
    expect(found).toEqual(['k02', 'k10', 'k15', 'k20']);
    expect(windows).toBeGreaterThanOrEqual(3);
    s.close();
  });
});

describe('SQLite backend: SQLite is the store, memory a bounded cache', () => {
  it('opens without reading a value, answers every key past its cache limit, holding no more', async () => {
    const path = file();
    const first = openSqliteBackend(path);
    for (let i = 0; i < 50; i++) ok(first.create(`/registry/core/configmaps/ns/cm-${i}`, v(`value-${i}`)));
    await first.sync();
    first.close();
    const s = new LogStructured(new SqliteLog(path), { maxObjects: 5 });
    expect(s.cacheUse()).toEqual({ objects: 0, bytes: 0 });
    expect(s.currentRevision()).toBe(50);
    for (let i = 0; i < 50; i++) {
      expect(sOf(s.get(`/registry/core/configmaps/ns/cm-${i}`)?.value ?? '{}')).toBe(`value-${i}`);
    }
    expect(s.cacheUse().objects).toBe(5);
    const listed = s.list('/registry/core/configmaps/');
    expect(listed.items).toHaveLength(50);
    expect(s.cacheUse().objects).toBe(5);
    // A listed row the cache holds at the same revision is the cached value itself, shared.
    const last = s.get('/registry/core/configmaps/ns/cm-9');
    expect(last).toBeDefined();
    expect(s.list('/registry/core/configmaps/').items.at(-1)).toBe(last);
    s.close();
  });

  it('serves from SQLite alone when the cache is off', async () => {
    const s = new LogStructured(new SqliteLog(file()), { maxObjects: 0 });
    const a = ok(s.create('/registry/x/things/a', v('1')));
    await s.sync();
    expect(ok(s.update(a.key, a.modRevision, v('2'))).modRevision).toBe(a.modRevision + 1);
    await s.sync();
    expect(sOf(s.get(a.key)?.value ?? '{}')).toBe('2');
    expect(s.cacheUse().objects).toBe(0);
    s.close();
  });

  it('refuses cache limits that are not whole numbers >= 0, naming the limit', () => {
    expect(() => openSqliteBackend(file(), { maxObjects: -1 })).toThrow(BadCacheLimitsError);
    expect(() => openSqliteBackend(file(), { maxBytes: 1.5 })).toThrow(/maxBytes must be a whole number >= 0/);
  });
});

describe('SQLite backend', () => {
  it('keeps the revision and compaction across a reopen, even when the latest row was a compacted tombstone', () => {
    const path = file();
    const s = openSqliteBackend(path);
    const cur = ok(s.create('/registry/x/things/a', v('0')));
    const gone = ok(s.create('/registry/x/things/gone', v('g')));
    const tomb = ok(s.delete(gone.key, gone.modRevision, v('g-last')));
    s.compact(tomb.modRevision);
    const rev = s.currentRevision();
    s.close();
    const reopened = openSqliteBackend(path);
    expect(reopened.currentRevision()).toBe(rev);
    expect(reopened.compactRevision()).toBe(tomb.modRevision);
    expect(reopened.list('/registry/x/').items.map((i) => i.key)).toEqual([cur.key]);
    expect(ok(reopened.create('/registry/x/things/new', v('n'))).modRevision).toBe(rev + 1);
    reopened.close();
  });

  it('refuses a second store on the same file', () => {
    const path = file();
    const s = openSqliteBackend(path);
    expect(() => openSqliteBackend(path)).toThrow();
    s.close();
  });

  it('refuses a second row replacing the same revision of a key (UNIQUE(name, prev_revision))', () => {
    const path = file();
    const s = openSqliteBackend(path);
    const a = ok(s.create('/registry/x/things/a', v('1')));
    ok(s.update(a.key, a.modRevision, v('2')));
    s.close();
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO kine (name, created, deleted, create_revision, prev_revision, value) VALUES (?, 0, 0, ?, ?, ?)',
    );
    // What a second writer that read the same revision would append.
    expect(() => insert.run(a.key, a.modRevision, a.modRevision, '{}')).toThrow(/UNIQUE constraint failed/);
    db.close();
  });

  it('opens a file written before the guard (every create had prev_revision 0) and keeps its history', async () => {
    const path = file();
    const db = new Database(path);
    db.exec(`
      CREATE TABLE kine (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, created INTEGER NOT NULL,
        deleted INTEGER NOT NULL, create_revision INTEGER NOT NULL, prev_revision INTEGER NOT NULL,
        value TEXT NOT NULL);
      CREATE INDEX kine_name_id ON kine (name, id);
      CREATE TABLE meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL);
      INSERT INTO kine VALUES (1, '/registry/x/things/a', 1, 0, 1, 0, '{"s":"1"}');
      INSERT INTO kine VALUES (2, '/registry/x/things/a', 0, 1, 1, 1, '{"s":"1-last"}');
      INSERT INTO kine VALUES (3, '/registry/x/things/a', 1, 0, 3, 0, '{"s":"2"}');`);
    db.close();
    const s = openSqliteBackend(path);
    const events: StoreEvent[] = [];
    s.watch('/registry/x/', 0, (e) => events.push(e));
    expect(events.map((e) => [e.type, prevOf(e)])).toEqual([
      ['create', undefined],
      ['delete', '1'],
      ['create', undefined],
    ]);
    const cur = s.get('/registry/x/things/a');
    if (!cur) throw new Error('the key is gone');
    ok(s.delete(cur.key, cur.modRevision, v('2-last')));
    ok(s.create(cur.key, v('3')));
    await s.sync();
    expect(s.committedRevision()).toBe(5);
    s.close();
  });
});
