// The five-field cron schedules of CronJob (robfig/cron's standard parser, which the CronJob
// controller uses): minute hour day-of-month month day-of-week, with `*`, lists, ranges, steps,
// month and weekday names, `?`, and the @yearly/@monthly/@weekly/@daily/@midnight/@hourly
// shortcuts. Parsing and matching are croner's; this file keeps robfig's rules where croner
// differs: exactly five fields (croner also takes seconds and years), a `TZ=`/`CRON_TZ=` prefix
// accepted and ignored (times are UTC; spec.timeZone is not applied), and @midnight.
import { Cron } from 'croner';

export interface CronSchedule {
  readonly cron: Cron;
}

const SHORTCUTS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const YEAR_MS = 366 * 24 * 60 * 60_000;

/** A schedule that cannot be parsed; its message names the schedule and the problem. */
export class CronScheduleError extends Error {
  override readonly name = 'CronScheduleError';
}

export function parseCron(spec: string): CronSchedule {
  const text = SHORTCUTS[spec.trim().toLowerCase()] ?? spec.trim().replace(/^(CRON_)?TZ=\S+\s+/, '');
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    throw new CronScheduleError(`schedule ${JSON.stringify(spec)}: want 5 fields, got ${fields.length}`);
  try {
    // legacyMode: both day fields restricted means either matches, as in Vixie cron and robfig.
    return { cron: new Cron(text, { timezone: 'Etc/UTC', legacyMode: true, paused: true }) };
  } catch (err) {
    throw new CronScheduleError(
      `schedule ${JSON.stringify(spec)}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

export function matches(s: CronSchedule, at: Date): boolean {
  return s.cron.match(at);
}

/** The latest scheduled minute in (after, upTo], if any; looks back at most a year. */
export function latestBetween(s: CronSchedule, afterMs: number, upToMs: number): number | undefined {
  // previousRuns looks strictly before its reference: start one millisecond past upTo's minute.
  const upTo = Math.floor(upToMs / 60_000) * 60_000;
  const [latest] = s.cron.previousRuns(1, new Date(upTo + 1));
  const t = latest?.getTime();
  return t !== undefined && t > afterMs && t > upTo - YEAR_MS ? t : undefined;
}

/** The next scheduled minute after `afterMs` (within about a year; undefined if none, like Feb 30). */
export function nextAfter(s: CronSchedule, afterMs: number): number | undefined {
  const next = s.cron.nextRun(new Date(afterMs))?.getTime();
  return next !== undefined && next < afterMs + YEAR_MS + 60_000 ? next : undefined;
}
