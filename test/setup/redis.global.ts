import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait.js';
import { findExecutable, redisAnswers } from './redis-probe.js';

/**
 * vitest globalSetup (both configs): gives the run a Redis and passes its URL to every test file
 * and every process they spawn through REDIS_URL. An explicit REDIS_URL wins; otherwise a Redis
 * already answering on 127.0.0.1:6379 is used; otherwise a private `redis-server` is started on a
 * free port for this run and stopped after it. Without a redis-server binary the run stops at once
 * with one line naming the package, instead of every queue test timing out.
 */
export default function setupRedis(): Promise<(() => Promise<void>) | undefined> {
  return provideRedis(6379);
}

/** setupRedis with the usual port as a parameter, so the start-our-own path can be tried anywhere. */
export async function provideRedis(usualPort: number): Promise<(() => Promise<void>) | undefined> {
  if (process.env.REDIS_URL) return undefined;
  if (await redisAnswers('127.0.0.1', usualPort)) {
    process.env.REDIS_URL = `redis://127.0.0.1:${usualPort}`;
    return undefined;
  }
  const bin = findExecutable('redis-server');
  if (!bin) {
    console.error(
      `tests need Redis: nothing answers on 127.0.0.1:${usualPort} and there is no redis-server; install the Debian package redis-server (apt-get install redis-server) or set REDIS_URL`,
    );
    process.exit(1);
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'flowops-redis-'));
  const child = spawn(
    bin,
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await waitFor(() => child.exitCode === null && redisAnswers('127.0.0.1', port), {
    what: `redis-server on port ${port} (${stderr.trim()})`,
    timeoutMs: 10_000,
  });
  process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
  return async () => {
    await stop(child, exited);
    rmSync(dir, { recursive: true, force: true });
  };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await exited;
}
