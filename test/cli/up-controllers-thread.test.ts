// The main thread's side of `flowops up`'s controllers thread (src/cli/up/controllers-thread.ts):
// a thread that cannot start fails the start, and one that fails later is reported, not left
// behind as a half-up process. The CLI-level behaviour is in up-threads.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ControllersThread, ControllersThreadError, type ControllersConfig } from '../../src/cli/up/index.js';
import { waitFor } from '../helpers/wait.js';

const log = pino({ level: 'silent' });
const config = (kubeconfig: string): ControllersConfig => ({
  kubeconfig,
  logLevel: 'silent',
  tenancy: { crossNamespaceRefs: true },
  scripts: { memoryLimitBytes: 512 * 2 ** 20, isolate: false, hide: [] },
  sourceDir: '.',
  installCrds: true,
});

describe("flowops up's controllers thread, seen from the main thread", () => {
  it('fails its start with the error the thread threw (here: a kubeconfig that is not there)', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'up-thread-')), 'no-kubeconfig');
    const onCrash = (): never => expect.unreachable('a start failure is not a crash');
    const thread = new ControllersThread(config(missing), { log, onCrash });
    const err = await thread.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ControllersThreadError);
    expect(err).toMatchObject({ code: 'ThreadFailed' });
    expect((err as Error).message).toContain(missing);
    expect(thread.ready()).toBe(false);
  }, 60_000);

  it('reports a thread that throws after it started, once, and answers scrapes without it', async () => {
    // A stand-in for the controllers' code: it says it started, then throws, as an uncaught error in a part would.
    const code = `const { parentPort } = require('node:worker_threads');
      parentPort.postMessage({ type: 'started' });
      parentPort.on('message', (m) => {
        if (m.type === 'sync') throw new Error('boom in ' + m.namespace + '/' + m.name);
      });`;
    const crashes: ControllersThreadError[] = [];
    const onCrash = (e: ControllersThreadError): number => crashes.push(e);
    const thread = new ControllersThread(config('unused'), { log, entry: { code, eval: true }, onCrash });
    await thread.start();
    expect(thread.ready()).toBe(true);
    expect(thread.describe()).toMatch(/^worker thread \d+$/);
    thread.trigger('default', 'flows');
    await waitFor(() => crashes.length > 0, { what: 'the crash reported' });
    expect(crashes).toHaveLength(1);
    const message = 'the controllers thread failed: boom in default/flows';
    expect(crashes[0]).toMatchObject({ code: 'ThreadFailed', message });
    expect(thread.ready()).toBe(false);
    // The main thread's own figures still answer; stopping an ended thread is a no-op.
    const main = new Registry();
    expect(await (await thread.scrape(main)).getMetricsAsJSON()).toEqual([]);
    await thread.stop();
  });

  it('terminates a thread that does not stop within the deadline', async () => {
    const code = `const { parentPort } = require('node:worker_threads');
      parentPort.postMessage({ type: 'started' });
      parentPort.on('message', () => undefined);`;
    const onCrash = (): never => expect.unreachable('a stop is not a crash');
    const entry = { code, eval: true };
    const thread = new ControllersThread(config('unused'), { log, entry, stopDeadlineMs: 200, onCrash });
    await thread.start();
    await expect(thread.stop()).rejects.toMatchObject({ code: 'StopTimeout' });
    expect(thread.ready()).toBe(false);
  });
});
