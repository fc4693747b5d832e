import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait.js';

/** Where scripts/control-plane/build-alertmanager.sh puts the binary (lib.sh's alertmanager_dir), if it is there. */
export function cachedAlertmanager(): string | undefined {
  const goMod = readFileSync(join(ROOT, 'scripts/control-plane/alertmanager/go.mod'), 'utf8');
  const version = /^\s*github\.com\/prometheus\/alertmanager (v\S+)/m.exec(goMod)?.[1];
  const bin = join(
    process.env.FLOWOPS_CACHE ?? join(homedir(), '.cache/flowops'),
    'control-plane',
    `alertmanager-${version ?? 'unknown'}`,
    'bin',
    'alertmanager',
  );
  return existsSync(bin) ? bin : undefined;
}

export interface RunningAlertmanager {
  url: string;
  stop(): Promise<void>;
}

/** A single Alertmanager (no cluster) on a free port of 127.0.0.1 with a receiver that sends nowhere. */
export async function startAlertmanager(bin: string): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(join(tmpdir(), 'alertmanager-'));
  writeFileSync(join(dir, 'alertmanager.yml'), 'route:\n  receiver: keep\nreceivers:\n  - name: keep\n');
  const port = await freePort();
  const proc: ChildProcess = spawn(
    bin,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok, {
    what: 'Alertmanager to be ready',
    timeoutMs: 30_000,
  });
  return {
    url,
    stop: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
