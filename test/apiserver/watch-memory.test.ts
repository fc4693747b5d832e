// Watchers that stop reading must not grow the server without bound (issue 13): 100 stalled
// watches against a server holding ~25 MB of objects, while large updates stream past them.
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf, type CliProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

const OBJECTS = 400;
const OBJECT_BYTES = 64 * 1024;
const UPDATES = 48;
const UPDATE_BYTES = 512 * 1024;
const STALLED = 100;
/**
 * What the server may grow by while the stalled watches are open: the 64 MiB all watches may
 * hold together, plus the strings and buffers in flight around it. Unbounded, 100 stalled
 * watches of this data took several GB.
 */
const GROWTH_BOUND_MIB = 600;
/** What may stay resident once they are gone. */
const RESIDUAL_BOUND_MIB = 200;

let server: CliProcess;
let url: string;

/** The server process's resident set and its peak, in MiB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

const send = (method: string, path: string, body?: object, type = 'application/json'): Promise<number> =>
  fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': type },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

/** A watch over a raw socket that reads its response headers and then stops reading. */
function stalledWatch(query: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () =>
      s.write(`GET /api/v1/namespaces/default/configmaps?watch=1${query} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`),
    );
    s.once('data', (d: Buffer) => {
      s.pause();
      if (!d.toString('latin1').startsWith('HTTP/1.1 200'))
        reject(new Error(`watch answered ${d.toString('latin1', 0, 40)}`));
      else resolve(s);
    });
    s.on('error', () => undefined);
  });
}

async function terminatedWatchers(): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const m = /^apiserver_terminated_watchers_total\{resource="configmaps"\} (\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-watch-memory-'));
  server = runFlowops(['apiserver', '--listen', '127.0.0.1:0', '--data', join(dir, 'data')]);
  url = await serverUrlOf(server);
  const filler = 'x'.repeat(OBJECT_BYTES);
  for (let i = 0; i < OBJECTS; i += 20) {
    const batch = Array.from({ length: 20 }, (_, j) =>
      send('POST', '/api/v1/namespaces/default/configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `big-${i + j}` },
        data: { filler },
      }),
    );
    expect(new Set(await Promise.all(batch))).toEqual(new Set([201]));
  }
  expect(
    await send('POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'churn' },
    }),
  ).toBe(201);
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
});

describe('stalled watchers', () => {
  it('hold bounded memory, are dropped slowest first, let a reading watcher keep up, and give it back when gone', async () => {
    const pid = server.child.pid!;
    const before = memoryOf(pid);
    const current = await fetch(`${url}/api/v1/namespaces/default/configmaps?limit=1`).then(
      (r) => r.json() as Promise<any>,
    );
    // Half list everything first (the initial list must wait for them), half only see the updates.
    const stalled: Socket[] = [];
    for (let i = 0; i < STALLED; i++)
      stalled.push(await stalledWatch(i % 2 ? '' : `&resourceVersion=${current.metadata.resourceVersion}`));

    // A watcher that reads everything, from before the updates.
    let modified = 0;
    const reader = request(
      `${url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${current.metadata.resourceVersion}`,
      (res) => {
        let buf = '';
        res.on('data', (d: Buffer) => {
          buf += d.toString();
          let i: number;
          while ((i = buf.indexOf('\n')) >= 0) {
            const e = JSON.parse(buf.slice(0, i));
            buf = buf.slice(i + 1);
            if (e.type === 'MODIFIED' && e.object.metadata.name === 'churn') modified++;
          }
        });
      },
    );
    reader.end();

    let peakDuring = before.rss;
    for (let u = 0; u < UPDATES; u++) {
      expect(
        await send(
          'PATCH',
          '/api/v1/namespaces/default/configmaps/churn',
          { data: { v: `${u}`.padEnd(UPDATE_BYTES, '.') } },
          'application/merge-patch+json',
        ),
      ).toBe(200);
      peakDuring = Math.max(peakDuring, memoryOf(pid).rss);
    }
    await waitFor(() => modified === UPDATES, {
      timeoutMs: 60_000,
      what: `the reading watcher to get ${UPDATES} updates (has ${modified})`,
    });
    const during = memoryOf(pid);
    peakDuring = Math.max(peakDuring, during.peak);
    console.log(
      `server RSS: ${before.rss.toFixed(0)} MiB before (peak ${before.peak.toFixed(0)} so far), peak ${peakDuring.toFixed(0)} MiB with ${STALLED} stalled watchers (sampled ${during.rss.toFixed(0)}, VmHWM ${during.peak.toFixed(0)})`,
    );
    expect(peakDuring - before.rss).toBeLessThan(GROWTH_BOUND_MIB);
    // The stalled ones that only watch the updates fell behind by more than 8 MiB each: dropped.
    expect(await terminatedWatchers()).toBeGreaterThanOrEqual(STALLED / 2);

    for (const s of stalled) s.destroy();
    reader.destroy();
    // Memory comes back once they are gone (the server's own reads and writes let the collector run).
    await waitFor(
      async () => {
        await send(
          'PATCH',
          '/api/v1/namespaces/default/configmaps/churn',
          { data: { v: 'small' } },
          'application/merge-patch+json',
        );
        return memoryOf(pid).rss - before.rss < RESIDUAL_BOUND_MIB;
      },
      {
        timeoutMs: 60_000,
        intervalMs: 500,
        what: `server RSS to fall within ${RESIDUAL_BOUND_MIB} MiB of ${before.rss.toFixed(0)} MiB (now ${memoryOf(pid).rss.toFixed(0)})`,
      },
    );
  }, 240_000);
});
