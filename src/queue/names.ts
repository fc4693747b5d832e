/** Queue defaults, free of imports so the CLI can name them without loading BullMQ. */
export const DEFAULT_QUEUE_NAME = 'flowops-reconcile';
export const DEFAULT_PREFIX = 'flowops';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** REDIS_URL, or the local default the tests and `.ci/run` use. */
export function redisUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.REDIS_URL || DEFAULT_REDIS_URL;
}
