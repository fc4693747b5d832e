import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs on stderr, as Kubernetes components write them; stdout stays for command output. */
export function createLogger(bindings: Record<string, unknown> = {}): Logger {
  const level = process.env.FLOWOPS_LOG_LEVEL ?? 'info';
  return pino({ level, base: { component: 'flowops', ...bindings }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
}
