import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'text';

/** Keys whose values never reach a log line, whatever a caller passes (defence in depth). */
const REDACT = [
  'password',
  'token',
  'authorization',
  '*.password',
  '*.token',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
];

/**
 * Logs on stderr; stdout stays for command output. JSON lines, as Kubernetes components write
 * them, unless stderr is a terminal: then short coloured lines for people (pino-pretty), with the
 * time, the part, the message and the key fields. `format` (the --log-format flag) overrides.
 */
export function createLogger(bindings: Record<string, unknown> = {}, format?: LogFormat): Logger {
  const level = process.env.FLOWOPS_LOG_LEVEL ?? 'info';
  const opts = {
    level,
    base: { component: 'flowops', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  const fromEnv =
    process.env.FLOWOPS_LOG_FORMAT === 'json' || process.env.FLOWOPS_LOG_FORMAT === 'text'
      ? process.env.FLOWOPS_LOG_FORMAT
      : undefined;
  const chosen = format ?? fromEnv ?? (process.stderr.isTTY ? 'text' : 'json');
  if (chosen !== 'text') return pino(opts, pino.destination(2));
  return pino(opts, humanStream());
}

function humanStream(): NodeJS.WritableStream {
  // Loaded only for terminals; pino-pretty formats synchronously on the same stderr.
  const pretty = createRequire(import.meta.url)('pino-pretty') as (o: PrettyOptions) => NodeJS.WritableStream;
  return pretty({
    destination: 2,
    sync: true,
    colorize: process.stderr.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,component,command',
    messageFormat: '{if part}{part}: {end}{msg}',
    singleLine: true,
    hideObject: false,
  });
}
