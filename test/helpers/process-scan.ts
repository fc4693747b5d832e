import { readdirSync, readFileSync } from 'node:fs';

/** A `sleep` duration no other process has: its command line finds the process from any PID namespace. */
export function sleepMarker(): string {
  return `1000.${Math.floor(Math.random() * 1e9)}`;
}

/** Live (not zombie) processes whose command line is `sleep <marker>`, as host pids. */
export function processesRunning(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (
        argv[0]?.endsWith('sleep') &&
        argv[1] === marker &&
        !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))
      )
        found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
