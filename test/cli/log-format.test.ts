import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runFlowops } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// Logs for people on a terminal, JSON lines for machines; secrets in neither.

async function firstLogLine(args: string[], env: Record<string, string> = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-logs-'));
  const p = runFlowops(['apiserver', '--listen', '127.0.0.1:0', '--data', dir, ...args], env);
  try {
    return await waitFor(
      () =>
        p
          .stderr()
          .split('\n')
          .find((l) => l.includes('embedded API server listening')),
      { what: `the listening log line (stderr: ${p.stderr()})`, timeoutMs: 30_000 },
    );
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
}

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('log format', () => {
  it('writes JSON lines when stderr is not a terminal', async () => {
    const line = JSON.parse(await firstLogLine([])) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      component: 'flowops',
      command: 'apiserver',
      msg: 'embedded API server listening',
    });
  });

  it('writes short lines with --log-format text', async () => {
    expect(await firstLogLine(['--log-format', 'text'])).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: embedded API server listening \{"url":"http:\/\/127\.0\.0\.1:\d+"/,
    );
  });

  it.skipIf(!hasScript)('writes coloured short lines on a terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-tty-'));
    const typescript = join(dir, 'typescript');
    // util-linux `script` gives the process a pseudo-terminal, as a person's shell does.
    const child = spawn(
      'script',
      ['-qfec', `${process.execPath} bin/flowops.js apiserver --listen 127.0.0.1:0 --data ${dir}`, typescript],
      { cwd: ROOT, env: { ...process.env, FLOWOPS_LOG_FORMAT: '' } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const line = await waitFor(() => out.split('\n').find((l) => l.includes('embedded API server listening')), {
        what: `a log line on the terminal (${out})`,
        timeoutMs: 30_000,
      });
      expect(line).toContain('\u001b[32mINFO\u001b[39m');
      expect(line).not.toContain('"level"');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('rejects an unknown format', async () => {
    const p = runFlowops(['apiserver', '--log-format', 'xml']);
    // A usage mistake: exit 2, as kubectl's and flux's and every other flag of flowops.
    expect((await p.exited).code).toBe(2);
    expect(p.stderr()).toContain('--log-format: expected "json" or "text", got "xml"');
  });

  it.each(['json', 'text'])('never writes a password or token value (%s)', (format) => {
    const script = `import { createLogger } from './src/log/index.ts'; createLogger({}, '${format}').info({ password: 'p4ss', token: 'tok3n', source: { token: 'tok3n' }, headers: { authorization: 'Bearer tok3n' } }, 'credentials');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toContain('credentials');
    expect(r.stderr).not.toMatch(/p4ss|tok3n/);
    expect(r.stderr).toContain('[redacted]');
  });
});
