import type { Logger } from 'pino';

/** Told of a throw inside a background loop's pass: which loop, and what it threw. */
export type LoopFault = (loop: string, err: unknown) => void;

/**
 * Runs one pass of a background loop (a queue drain, a timer tick, a write listener) so that a
 * throw is reported and the loop takes its next pass: no stored object or event may stop a
 * controller or end the process. Returns whether the pass finished.
 */
export function keepGoing(loop: string, onFault: LoopFault, pass: () => void): boolean {
  try {
    pass();
    return true;
  } catch (err) {
    onFault(loop, err);
    return false;
  }
}

/** A LoopFault that logs at error level with the loop's name. */
export function logLoopFault(log: Logger): LoopFault {
  return (loop, err) => log.error({ err, loop }, `background loop ${loop} failed; it goes on`);
}

/** Where the embedded API server's loops report without a logger: one line on stderr. */
export const stderrLoopFault: LoopFault = (loop, err) => {
  const why = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`background loop ${loop} failed; it goes on: ${why}\n`);
};
