import type { Command } from 'commander';
import type { LogFormat } from '../log/index.js';
import { SetupError } from '../util/setup-error.js';

export interface LogFlags {
  logFormat?: LogFormat;
}

function parseLogFormat(v: string): LogFormat {
  if (v !== 'json' && v !== 'text') throw new SetupError(`--log-format: expected "json" or "text", got "${v}"`);
  return v;
}

/** `--log-format json|text` for the long-running commands; without it, text on a terminal and JSON otherwise (as in a pod). */
export function addLogFlags(cmd: Command): Command {
  return cmd.option(
    '--log-format <format>',
    'json or text (default: text on a terminal, JSON otherwise)',
    parseLogFormat,
  );
}
