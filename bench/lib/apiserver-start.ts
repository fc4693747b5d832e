// Start time, RSS and full-list latency of `flowops apiserver` with N objects stored, for this checkout's
// server and, beside it in the same run, a baseline build (another checkout's bin/flowops.js).
import { Agent, request } from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

export interface Spawned {
  child: ChildProcess;
  base: string;
  startupMs: number;
}

/** Spawns `<bin> apiserver` on `dir`; resolves with its base URL and the ms from spawn to listening. */
export async function spawnServer(bin: string, dir: string, extra: string[] = []): Promise<Spawned> {
  const spawnedAt = performance.now();
  const args = [bin, 'apiserver', '--listen', '127.0.0.1:0', '--data', dir, ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (c) => reject(new Error(`server ${bin} exited ${c}`)));
  });
  return { child, base, startupMs: performance.now() - spawnedAt };
}

/** Stops the server gracefully and resolves once it has exited. */
export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function rssKiB(child: ChildProcess): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function getBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => {
        if (res.statusCode === 200) resolve(bytes);
        else reject(new Error(`GET ${url}: ${res.statusCode}`));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface StartFigures {
  startMs: number;
  /** RSS once listening, and after the background start work and `lists` full lists. */
  rssListeningKiB: number;
  rssAfterListsKiB: number;
  listMs: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Restarts `bin` on `dir` `runs` times: median start; RSS and median full-list time of `listPath` from the last. */
export async function startFigures(
  bin: string,
  dir: string,
  listPath: string,
  runs = 3,
  lists = 5,
): Promise<StartFigures> {
  const starts: number[] = [];
  let last: StartFigures | undefined;
  for (let r = 0; r < runs; r++) {
    const s = await spawnServer(bin, dir);
    starts.push(s.startupMs);
    const rssListeningKiB = rssKiB(s.child);
    const times: number[] = [];
    if (r === runs - 1) {
      for (let i = 0; i < lists; i++) {
        const t = performance.now();
        await getBytes(`${s.base}${listPath}`);
        times.push(performance.now() - t);
      }
      last = { startMs: 0, rssListeningKiB, rssAfterListsKiB: rssKiB(s.child), listMs: median(times) };
    }
    await stopServer(s.child);
  }
  if (!last) throw new Error('startFigures: runs must be at least 1');
  return { ...last, startMs: median(starts) };
}

export function formatStart(label: string, n: number, f: StartFigures): string {
  const mib = (k: number): string => (k / 1024).toFixed(0);
  return (
    `${label} with ${n} objects stored: start ${f.startMs.toFixed(0)} ms, ` +
    `RSS ${mib(f.rssListeningKiB)} MiB listening, ` +
    `${mib(f.rssAfterListsKiB)} MiB after 5 full lists; full list ${f.listMs.toFixed(0)} ms`
  );
}

/**
 * Adds ConfigMaps `from`..`to` to a stopped server's data directory in one SQLite transaction, each
 * the row the server itself stored for `template` (created over HTTP first) with its own name, uid
 * and revision: seeding 100k objects over HTTP would take minutes on a shared machine.
 */
export function seedLikeTemplate(dbFile: string, templateKey: string, from: number, to: number): void {
  const db = new Database(dbFile);
  try {
    const tpl = db.prepare('SELECT value FROM kine WHERE name = ? ORDER BY id DESC LIMIT 1').get(templateKey) as
      | { value: string }
      | undefined;
    if (!tpl) throw new Error(`seed: no stored ${templateKey} to copy`);
    const obj = JSON.parse(tpl.value) as { metadata: Record<string, unknown>; data?: Record<string, string> };
    const last = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kine'").get() as { seq: number }).seq;
    const insert = db.prepare(
      'INSERT INTO kine (id, name, created, deleted, create_revision, prev_revision, value) ' +
        'VALUES (?, ?, 1, 0, ?, ?, ?)',
    );
    const prefix = templateKey.slice(0, templateKey.lastIndexOf('/') + 1);
    db.transaction(() => {
      for (let i = from, rev = last + 1; i < to; i++, rev++) {
        const name = `cm-${String(i).padStart(6, '0')}`;
        obj.metadata.name = name;
        obj.metadata.uid = randomUUID();
        obj.metadata.resourceVersion = String(rev);
        obj.metadata.labels = { app: 'bench', shard: `s${i % 16}` };
        if (obj.data) obj.data.index = String(i);
        insert.run(rev, `${prefix}${name}`, rev, rev - 1, JSON.stringify(obj));
      }
    })();
  } finally {
    db.close();
  }
}
