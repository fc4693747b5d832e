/**
 * The five-field cron schedules of CronJob (robfig/cron's standard parser, which the CronJob
 * controller uses): minute hour day-of-month month day-of-week, with `*`, lists, ranges, steps,
 * month and weekday names, `?`, and the @yearly/@monthly/@weekly/@daily/@midnight/@hourly shortcuts.
 * Times are UTC; spec.timeZone is not applied.
 */
export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** Either day field restricted: then a day matches when either does (cron's rule). */
  domStar: boolean;
  dowStar: boolean;
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
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export function parseCron(spec: string): CronSchedule {
  const text = SHORTCUTS[spec.trim().toLowerCase()] ?? spec.trim().replace(/^(CRON_)?TZ=\S+\s+/, '');
  const fields = text.split(/\s+/);
  if (fields.length !== 5) throw new Error(`schedule ${JSON.stringify(spec)}: want 5 fields, got ${fields.length}`);
  const [min, hour, dom, month, dow] = fields as [string, string, string, string, string];
  const daysOfWeek = field(dow, 0, 7, DAYS);
  if (daysOfWeek.delete(7)) daysOfWeek.add(0); // 7 is Sunday too
  return {
    minutes: field(min, 0, 59),
    hours: field(hour, 0, 23),
    daysOfMonth: field(dom, 1, 31),
    months: field(month, 1, 12, MONTHS, 1),
    daysOfWeek,
    domStar: dom === '*' || dom === '?',
    dowStar: dow === '*' || dow === '?',
  };
}

function field(text: string, lo: number, hi: number, names: string[] = [], nameBase = 0): Set<number> {
  const out = new Set<number>();
  const value = (s: string): number => {
    const named = names.indexOf(s.toLowerCase());
    const n = named >= 0 ? named + nameBase : /^\d+$/.test(s) ? Number(s) : NaN;
    if (!(n >= lo && n <= hi)) throw new Error(`schedule field ${JSON.stringify(text)}: ${JSON.stringify(s)} is not in ${lo}-${hi}`);
    return n;
  };
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`schedule field ${JSON.stringify(text)}: bad step`);
    let from: number;
    let to: number;
    if (range === '*' || range === '?') [from, to] = [lo, hi];
    else if (range.includes('-')) [from, to] = range.split('-').map(value) as [number, number];
    else [from, to] = [value(range), stepText === undefined ? value(range) : hi];
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return out;
}

export function matches(s: CronSchedule, at: Date): boolean {
  if (!s.minutes.has(at.getUTCMinutes()) || !s.hours.has(at.getUTCHours()) || !s.months.has(at.getUTCMonth() + 1)) return false;
  const dom = s.daysOfMonth.has(at.getUTCDate());
  const dow = s.daysOfWeek.has(at.getUTCDay());
  return s.domStar || s.dowStar ? dom && dow : dom || dow;
}

/** The latest scheduled minute in (after, upTo], if any; looks back at most a year of minutes. */
export function latestBetween(s: CronSchedule, afterMs: number, upToMs: number): number | undefined {
  const floorMin = (ms: number): number => Math.floor(ms / 60_000) * 60_000;
  const stop = Math.max(floorMin(afterMs), floorMin(upToMs) - 366 * 24 * 60 * 60_000);
  for (let t = floorMin(upToMs); t > stop; ) {
    const at = new Date(t);
    if (!s.hours.has(at.getUTCHours())) {
      t = Math.floor(t / 3_600_000) * 3_600_000 - 60_000; // the last minute of the hour before
      continue;
    }
    if (matches(s, at)) return t;
    t -= 60_000;
  }
  return undefined;
}

/** The next scheduled minute after `afterMs` (within about a year; undefined if none, like Feb 30). */
export function nextAfter(s: CronSchedule, afterMs: number): number | undefined {
  const start = Math.floor(afterMs / 60_000) * 60_000 + 60_000;
  for (let t = start; t < start + 366 * 24 * 60 * 60_000; ) {
    const at = new Date(t);
    // An hour that cannot match is skipped whole: @yearly looks a year ahead in 9k steps, not 500k.
    if (!s.hours.has(at.getUTCHours())) {
      t = Math.floor(t / 3_600_000) * 3_600_000 + 3_600_000;
      continue;
    }
    if (matches(s, at)) return t;
    t += 60_000;
  }
  return undefined;
}
