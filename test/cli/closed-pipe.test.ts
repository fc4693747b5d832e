import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = join(import.meta.dirname, '..', '..', 'bin', 'flowops.js');

describe('a reader that closes the pipe (flowops … | head)', () => {
  it('ends the command quietly with exit 0, with no EPIPE stack trace', async () => {
    // The reading end is closed before the command writes, as `head` does after its lines.
    const child = spawn(process.execPath, [cli, 'completion', 'bash'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(code).toBe(0);
  });
});
