// Embedded API server benchmark: prints figures, asserts nothing.
//   npx tsx bench/apiserver.ts [--objects 100000] [--creates 20000] [--baseline <other checkout>/bin/flowops.js]
//   [--start-only]: only start time, RSS and full-list time at --start-sizes (default 10000,100000) stored objects,
//   this checkout's server beside --baseline's (e.g. a build of main at d3b3883) on the same data.
// The server runs as a real `flowops apiserver` child process; clients are in this process.
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { VendoredOpenApi } from '../src/apiserver/openapi/vendored.js';
import { VENDOR_DIR } from '../src/apiserver/openapi/vendor-files.js';
import { dropUnknownFields } from '../src/apiserver/openapi/builtin-fields.js';
import { encodeKubeProtobuf } from '../src/apiserver/protobuf/index.js';
import { DEFAULT_STORAGE_CACHE_MIB, DEFAULT_STORAGE_CACHE_OBJECTS } from '../src/apiserver/server-defaults.js';
import { formatStart, seedLikeTemplate, spawnServer, startFigures } from './lib/apiserver-start.js';
import { stopServer as stopChild } from './lib/apiserver-start.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const TOTAL = arg('objects', 100_000);
const CREATES = arg('creates', 20_000);
const CONCURRENCY = 16;
const WATCHERS = 100;
const WATCH_WRITES = 200;
const STALLED = 50;
const STALLED_CREATES = arg('stalled-creates', 10_000);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function call(
  url: string,
  method: string,
  body?: string,
  type = 'application/json',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: body ? { 'content-type': type, 'content-length': Buffer.byteLength(body) } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const configMap = (i: number): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: 'bench', shard: `s${i % 16}` } },
    data: { index: String(i), payload: 'x'.repeat(96) },
  });

/** Per-row (one transaction each) and batched (one transaction per `batch` rows) inserts/s in the same schema. */
function rawInsertsPerSecond(n: number, batch: number): { perRow: number; batched: number } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-raw-'));
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE kine (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, created INTEGER, deleted INTEGER, create_revision INTEGER, prev_revision INTEGER, value TEXT); CREATE INDEX kine_name_id ON kine (name, id);',
  );
  const ins = db.prepare(
    'INSERT INTO kine (name, created, deleted, create_revision, prev_revision, value) VALUES (?, 1, 0, 0, 0, ?)',
  );
  const t0 = performance.now();
  for (let i = 0; i < n; i++) ins.run(`/registry/core/configmaps/default/cm-${i}`, configMap(i));
  const perRow = n / ((performance.now() - t0) / 1000);
  const insertMany = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) ins.run(`/registry/core/configmaps/batched/cm-${i}`, configMap(i));
  });
  const t1 = performance.now();
  for (let i = 0; i < n; i += batch) insertMany(i, Math.min(n, i + batch));
  const batched = n / ((performance.now() - t1) / 1000);
  db.close();
  return { perRow, batched };
}

/** Spawns `flowops apiserver` on `dir`; resolves with its base URL and the ms from spawn to listening. */
async function startServer(dir: string): Promise<{ child: ChildProcess; base: string; startupMs: number }> {
  const spawnedAt = performance.now();
  const args = [join(import.meta.dirname, '../bin/flowops.js'), 'apiserver', '--listen', '127.0.0.1:0', '--data', dir];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  return { child, base, startupMs: performance.now() - spawnedAt };
}

/** Stops the server gracefully and resolves once it has exited. */
function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function createRange(base: string, from: number, to: number): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const i = next++;
      const r = await call(`${base}/api/v1/namespaces/default/configmaps`, 'POST', configMap(i));
      if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${r.text}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A request with a binary body and Accept, answering the byte count (protobuf creates and lists). */
function callBytes(
  url: string,
  method: string,
  accept: string,
  body?: Buffer,
  type = PROTOBUF,
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { accept };
    if (body) Object.assign(headers, { 'content-type': type, 'content-length': body.length });
    const req = request(url, { method, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Creates/s and full-list time in protobuf beside JSON, in the same run: the same ConfigMaps (bodies encoded
 * before the clock starts, as client-go has them ready), into two namespaces, then the 100k-object list both ways.
 */
async function protobufVsJson(base: string, n: number): Promise<string[]> {
  for (const ns of ['pb-json', 'pb-proto'])
    await call(`${base}/api/v1/namespaces`, 'POST', JSON.stringify({ metadata: { name: ns } }));
  const jsonBodies = Array.from({ length: n }, (_, i) => configMap(i));
  const pbBodies = jsonBodies.map((b) => encodeKubeProtobuf(JSON.parse(b) as Record<string, never>));
  const run = async (ns: string, send: (i: number) => Promise<number>): Promise<number> => {
    let next = 0;
    const t = performance.now();
    const worker = async (): Promise<void> => {
      while (next < n) {
        const i = next++;
        const status = await send(i);
        if (status !== 201) throw new Error(`create ${ns}/${i}: ${status}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return n / ((performance.now() - t) / 1000);
  };
  const json = await run(
    'pb-json',
    async (i) =>
      (
        await callBytes(
          `${base}/api/v1/namespaces/pb-json/configmaps`,
          'POST',
          'application/json',
          Buffer.from(jsonBodies[i]!),
          'application/json',
        )
      ).status,
  );
  const proto = await run(
    'pb-proto',
    async (i) =>
      (
        await callBytes(
          `${base}/api/v1/namespaces/pb-proto/configmaps`,
          'POST',
          `${PROTOBUF}, application/json`,
          pbBodies[i]!,
        )
      ).status,
  );
  const listTimes = async (accept: string): Promise<{ ms: number; bytes: number }> => {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      bytes = (await callBytes(`${base}/api/v1/namespaces/default/configmaps`, 'GET', accept)).bytes;
      times.push(performance.now() - t);
    }
    return { ms: pct(times, 50), bytes };
  };
  const jsonList = await listTimes('application/json');
  const pbList = await listTimes(`${PROTOBUF}, application/json`);
  const f = (x: number, d = 0): string => x.toFixed(d);
  return [
    `creates/s, ${n} ConfigMaps each: JSON ${f(json)}, protobuf ${f(proto)} (protobuf ÷ JSON ${f(proto / json, 2)})`,
    `full list of the default namespace: JSON ${f(jsonList.ms)} ms (${f(jsonList.bytes / 1048576, 1)} MiB), protobuf ${f(pbList.ms)} ms (${f(pbList.bytes / 1048576, 1)} MiB) (protobuf ÷ JSON ${f(pbList.ms / jsonList.ms, 2)})`,
  ];
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function watchLatency(base: string): Promise<{ p50: number; p99: number; delivered: number }> {
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  const watchAgent = new Agent({ keepAlive: false, maxSockets: WATCHERS + 1 });
  const streams: Array<ReturnType<typeof request>> = [];
  let ready = 0;
  await new Promise<void>((resolveAll) => {
    for (let w = 0; w < WATCHERS; w++) {
      const req = request(
        `${base}/api/v1/namespaces/watched/configmaps?watch=true&resourceVersion=0`,
        { agent: watchAgent },
        (res) => {
          if (++ready === WATCHERS) resolveAll();
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            buf += d;
            let i: number;
            while ((i = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, i);
              buf = buf.slice(i + 1);
              const m = /"marker":"([^"]+)"/.exec(line);
              const t = m && sent.get(m[1]!);
              if (t !== undefined && t !== null) latencies.push(performance.now() - t);
            }
          });
        },
      );
      req.on('error', () => undefined);
      req.end();
      streams.push(req);
    }
  });
  for (let i = 0; i < WATCH_WRITES; i++) {
    const marker = `m${i}`;
    sent.set(marker, performance.now());
    await call(
      `${base}/api/v1/namespaces/watched/configmaps`,
      'POST',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `w${i}` }, data: { marker } }),
    );
  }
  const deadline = Date.now() + 10_000;
  while (latencies.length < WATCHERS * WATCH_WRITES && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  for (const s of streams) s.destroy();
  return { p50: pct(latencies, 50), p99: pct(latencies, 99), delivered: latencies.length };
}

/** What the vendored OpenAPI costs: in the server (RSS, first and second fetch) and per built-in create. */
async function openapiCost(base: string, rssOf: () => number): Promise<string[]> {
  const idle = rssOf();
  const fetchAll = async (): Promise<number> => {
    const t = performance.now();
    const index = JSON.parse((await call(`${base}/openapi/v3`, 'GET')).text) as {
      paths: Record<string, { serverRelativeURL: string }>;
    };
    for (const { serverRelativeURL } of Object.values(index.paths)) await call(`${base}${serverRelativeURL}`, 'GET');
    await call(`${base}/openapi/v2`, 'GET');
    return performance.now() - t;
  };
  const cold = await fetchAll();
  const loaded = rssOf();
  const warm = await fetchAll();
  // In this process: what reading every file eagerly at startup would cost, and the per-create check.
  const fresh = new VendoredOpenApi(VENDOR_DIR);
  const t0 = performance.now();
  for (const path of Object.keys(fresh.manifest().v3)) fresh.v3Text(path);
  fresh.crdMeta();
  fresh.swagger();
  const eager = performance.now() - t0;
  const perCall = (kind: string, group: string, obj: () => Record<string, never>): number => {
    const s = fresh.kindSchema(group, 'v1', kind)!;
    const n = 20_000;
    const t = performance.now();
    for (let i = 0; i < n; i++) dropUnknownFields(obj(), s.root, s.schemas);
    return ((performance.now() - t) / n) * 1000;
  };
  const cm = perCall('ConfigMap', '', () => JSON.parse(configMap(1)) as Record<string, never>);
  const deploy = perCall('Deployment', 'apps', () => JSON.parse(DEPLOYMENT) as Record<string, never>);
  const parseOnly = (() => {
    const n = 20_000;
    const t = performance.now();
    for (let i = 0; i < n; i++) JSON.parse(DEPLOYMENT);
    return ((performance.now() - t) / n) * 1000;
  })();
  const f = (n: number, d = 0): string => n.toFixed(d);
  return [
    `OpenAPI (lazy, per group-version): server RSS ${f(idle / 1024)} MiB idle, ${f(loaded / 1024)} MiB after every v3 document and v2 were served once (+${f((loaded - idle) / 1024)} MiB)`,
    `OpenAPI fetch of every document: first ${f(cold)} ms, again ${f(warm)} ms (ratio ${f(cold / warm, 1)})`,
    `OpenAPI eager load of every vendored file (what startup would pay without laziness): ${f(eager)} ms`,
    `unknown-field check per create: ConfigMap ${f(cm, 1)} µs, Deployment ${f(deploy, 1)} µs (JSON.parse of the same Deployment: ${f(parseOnly, 1)} µs, ratio ${f(deploy / parseOnly, 2)})`,
  ];
}

const DEPLOYMENT = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:1',
            ports: [{ containerPort: 80 }],
            env: [{ name: 'A', value: '1' }],
            resources: { limits: { cpu: '1' } },
          },
        ],
      },
    },
  },
});

/**
 * The initial list of a watch from resourceVersion=0, written as the client drains it (not
 * buffered whole): milliseconds until its last ADDED event arrives.
 */
async function initialListWatch(base: string, expected: number): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    let tail = '';
    const req = request(
      `${base}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0`,
      { agent: false },
      (res) => {
        res.setEncoding('latin1');
        res.on('data', (d: string) => {
          const text = tail + d;
          let i = -1;
          while ((i = text.indexOf('\n', i + 1)) >= 0) seen++;
          tail = text.slice(text.lastIndexOf('\n') + 1);
          if (seen >= expected) {
            req.destroy();
            resolve();
          }
        });
      },
    );
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    req.end();
  });
  return performance.now() - t0;
}

/** Watches over raw sockets that read nothing, each from the current revision (so every write reaches it). */
async function stalledWatchers(base: string, n: number): Promise<Socket[]> {
  const rv = (
    JSON.parse((await call(`${base}/api/v1/namespaces/default/configmaps?limit=1`, 'GET')).text) as {
      metadata: { resourceVersion: string };
    }
  ).metadata.resourceVersion;
  const { hostname, port } = new URL(base);
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i++) {
    sockets.push(
      await new Promise<Socket>((resolve) => {
        const s = connect(Number(port), hostname, () =>
          s.write(
            `GET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv} HTTP/1.1\r\nHost: x\r\n\r\n`,
          ),
        );
        s.once('data', () => {
          s.pause();
          resolve(s);
        });
        s.on('error', () => undefined);
      }),
    );
  }
  return sockets;
}

const BIN = join(import.meta.dirname, '../bin/flowops.js');

/** Start time, RSS and full-list time at each size, this checkout's server beside the baseline's on the same data. */
async function startSection(): Promise<string[]> {
  const i = process.argv.indexOf('--baseline');
  const baseline = i >= 0 ? process.argv[i + 1] : undefined;
  const j = process.argv.indexOf('--start-sizes');
  const sizes = (j >= 0 ? String(process.argv[j + 1]) : '10000,100000').split(',').map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'bench-apiserver-start-'));
  const lines: string[] = [
    `storage cache (this checkout): ${DEFAULT_STORAGE_CACHE_OBJECTS} objects / ` +
      `${DEFAULT_STORAGE_CACHE_MIB} MiB (the defaults)`,
  ];
  // The first ConfigMap is created over HTTP; the rest are copies of its stored row (seedLikeTemplate).
  const seeder = await spawnServer(BIN, dir);
  await createRange(seeder.base, 0, 1);
  await stopChild(seeder.child);
  let stored = 1;
  for (const n of sizes) {
    seedLikeTemplate(join(dir, 'state.db'), '/registry/core/configmaps/default/cm-000000', stored, n);
    stored = n;
    const list = '/api/v1/namespaces/default/configmaps';
    lines.push(formatStart('this checkout', n, await startFigures(BIN, dir, list)));
    if (baseline) lines.push(formatStart(`baseline ${baseline}`, n, await startFigures(baseline, dir, list)));
  }
  return lines;
}

async function main(): Promise<void> {
  if (process.argv.includes('--start-only')) {
    for (const line of await startSection()) console.log(line);
    agent.destroy();
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-apiserver-'));
  const started = await startServer(dir);
  const { base, startupMs } = started;
  let child = started.child;
  const rssOf = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
  try {
    const openapi = await openapiCost(base, rssOf);
    const raw = rawInsertsPerSecond(CREATES, arg('batch', 64));

    const t0 = performance.now();
    await createRange(base, 0, CREATES);
    const createsPerSec = CREATES / ((performance.now() - t0) / 1000);

    await createRange(base, CREATES, TOTAL);
    const rssAfterCreates = rssOf();
    const listTimes: number[] = [];
    let listed = 0;
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      const r = await call(`${base}/api/v1/namespaces/default/configmaps`, 'GET');
      listTimes.push(performance.now() - s);
      listed = (JSON.parse(r.text) as { items: unknown[] }).items.length;
    }
    const selTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      await call(`${base}/api/v1/namespaces/default/configmaps?labelSelector=shard%3Ds3`, 'GET');
      selTimes.push(performance.now() - s);
    }
    const rssKiB = rssOf();

    const initialListMs = await initialListWatch(base, listed);

    // Creates while stalled watchers (which fall behind and are dropped) are open, against the
    // creates/s above: what a client that stops reading costs everyone else.
    const stalled = await stalledWatchers(base, STALLED);
    const t1 = performance.now();
    await createRange(base, TOTAL, TOTAL + STALLED_CREATES);
    const stalledCreatesPerSec = STALLED_CREATES / ((performance.now() - t1) / 1000);
    const rssStalled = rssOf();
    for (const s of stalled) s.destroy();

    await call(
      `${base}/api/v1/namespaces`,
      'POST',
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'watched' } }),
    );
    const watch = await watchLatency(base);
    const protobufLines = await protobufVsJson(base, arg('protobuf-creates', 5000));

    const firstPage = await call(`${base}/api/v1/namespaces/default/configmaps?limit=1`, 'GET');
    const firstMeta = (JSON.parse(firstPage.text) as { metadata: { remainingItemCount?: number } }).metadata;
    const stored = (firstMeta.remainingItemCount ?? 0) + 1;
    // Start time with every object stored: the server restarted on the same data directory.
    await stopServer(child);
    const restarted = await startServer(dir);
    child = restarted.child;
    const restartMs = restarted.startupMs;

    const f = (n: number, d = 0): string => n.toFixed(d);
    console.log('FlowOps embedded API server benchmark');
    console.log(`machine: ${(await import('node:os')).cpus().length} cores, node ${process.version}`);
    console.log(`raw SQLite inserts/s, a transaction per row (same schema, WAL, synchronous=NORMAL): ${f(raw.perRow)}`);
    console.log(`raw SQLite inserts/s, ${arg('batch', 64)} rows per transaction (same schema): ${f(raw.batched)}`);
    console.log(`HTTP creates/s (${CREATES} ConfigMaps, ${CONCURRENCY} keep-alive clients): ${f(createsPerSec)}`);
    const batchedRatio = f(createsPerSec / raw.batched, 2);
    const ratios = `${f(createsPerSec / raw.perRow, 2)} (goal >= 0.3); ÷ batched inserts/s: ${batchedRatio}`;
    console.log(`ratio creates/s ÷ per-row inserts/s: ${ratios}`);
    console.log(`list of ${listed} objects: median ${f(pct(listTimes, 50))} ms, min ${f(Math.min(...listTimes))} ms`);
    console.log(`label-selected list over ${listed} objects (1/16 match): median ${f(pct(selTimes, 50))} ms`);
    console.log(
      `server RSS at ${listed} objects: ${f(rssAfterCreates / 1024)} MiB after the creates, ${f(rssKiB / 1024)} MiB after ten full lists (uncollected garbage included)`,
    );
    const withStored = `${f(restartMs)} ms with ${stored} default-namespace ConfigMaps stored (goal <= 300)`;
    console.log(`server start (spawn to listening, schemas loaded lazily): ${f(startupMs)} ms empty, ${withStored}`);
    for (const line of openapi) console.log(line);
    console.log(
      `watch from resourceVersion=0 over ${listed} objects (initial list under back-pressure): ${f(initialListMs)} ms, ${f(initialListMs / pct(listTimes, 50), 2)}× the median full list`,
    );
    console.log(
      `HTTP creates/s with ${STALLED} stalled watchers open (${STALLED_CREATES} ConfigMaps): ${f(stalledCreatesPerSec)}, ${f(stalledCreatesPerSec / createsPerSec, 2)}× creates/s without; server RSS then ${f(rssStalled / 1024)} MiB`,
    );
    for (const line of protobufLines) console.log(line);
    console.log(
      `watch delivery to ${WATCHERS} watchers (${WATCH_WRITES} writes, ${watch.delivered} deliveries): p50 ${f(watch.p50, 2)} ms, p99 ${f(watch.p99, 2)} ms`,
    );
  } finally {
    await stopServer(child);
    agent.destroy();
  }
}

await main();
