// Runs helm / kubectl / kustomize without a shell (arguments are never parsed as shell syntax)
// and turns a failure into a StepError carrying the end of its stderr.

import { execFile } from 'node:child_process';
import { tailLines } from './output-tail.js';
import { abortError } from './step-errors.js';
import { StepError } from './types.js';

export function runTool(
  binary: string,
  args: string[],
  opts: { cwd: string; signal: AbortSignal; what: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { cwd: opts.cwd, signal: opts.signal, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        if (opts.signal.aborted) return reject(abortError(opts.signal, opts.what));
        const code = typeof err.code === 'number' ? err.code : undefined;
        const detail = tailLines(stderr) || err.message;
        reject(
          new StepError(`${opts.what} failed${code === undefined ? '' : ` (exit code ${code})`}: ${detail}`, {
            reason: 'TemplateEngineFailed',
            ...(code === undefined ? {} : { exitCode: code }),
            cause: err,
          }),
        );
      },
    );
  });
}
