import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestBetween, matches, nextAfter, parseCron } from '../../src/simulator/cron-schedule.js';
import { waitFor } from '../helpers/wait.js';
import { startSimulatedCluster, type SimulatedCluster } from './harness.js';

const utc = (s: string): number => Date.parse(`${s}Z`);

describe('cron schedules', () => {
  it('fields, ranges, steps, lists, names and shortcuts', () => {
    const s = parseCron('*/15 9-17 * jan,JUL mon-fri');
    const pad = (n: number): string => String(n).padStart(2, '0');
    const at = (hour: number, minute: number): Date => new Date(utc(`2026-07-01T${pad(hour)}:${pad(minute)}:00`));
    expect(Array.from({ length: 60 }, (_, m) => m).filter((m) => matches(s, at(9, m)))).toEqual([0, 15, 30, 45]);
    const hours = Array.from({ length: 24 }, (_, h) => h).filter((h) => matches(s, at(h, 0)));
    expect(hours).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    // A month is in the schedule when its own first run falls inside it.
    const runsIn = (m: number): boolean => {
      const next = nextAfter(s, utc(`2026-${pad(m)}-01T00:00:00`));
      return next !== undefined && new Date(next).getUTCMonth() + 1 === m;
    };
    const months = Array.from({ length: 12 }, (_, m) => m + 1).filter(runsIn);
    expect(months).toEqual([1, 7]);
    expect(matches(s, new Date(utc('2026-07-01T09:30:00')))).toBe(true); // a Wednesday
    expect(matches(s, new Date(utc('2026-07-04T09:30:00')))).toBe(false); // a Saturday
    expect(nextAfter(parseCron('@hourly'), utc('2026-12-01T09:10:00'))).toBe(utc('2026-12-01T10:00:00'));
    expect(nextAfter(parseCron('@yearly'), utc('2026-12-01T09:10:00'))).toBe(utc('2027-01-01T00:00:00'));
    // Both day fields restricted: either matches (the 13th, or any Friday).
    const either = parseCron('0 0 13 * 5');
    expect(matches(either, new Date(utc('2026-12-04T00:00:00')))).toBe(true);
    expect(matches(either, new Date(utc('2026-12-13T00:00:00')))).toBe(true);
    expect(() => parseCron('61 * * * *')).toThrow(/Invalid value for minute: 61/);
    expect(() => parseCron('* * *')).toThrow(/5 fields/);
  });

  it('the latest missed run, if any, since the last one', () => {
    const every5 = parseCron('*/5 * * * *');
    expect(latestBetween(every5, utc('2026-12-01T09:00:00'), utc('2026-12-01T09:17:30'))).toBe(
      utc('2026-12-01T09:15:00'),
    );
    expect(latestBetween(every5, utc('2026-12-01T09:15:00'), utc('2026-12-01T09:17:30'))).toBeUndefined();
  });
});

describe('simulated CronJob', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('a missed run is made up: a Job from the template completes, and the CronJob records it', async () => {
    await c.kubectl.ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *']);
    // Rather than wait for the next minute: say the last run was three minutes ago. The controller
    // then owes the run of the current minute, as after any downtime.
    const threeMinutesAgo = new Date(Date.now() - 180_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await c.kubectl.ok([
      'patch',
      'cronjob',
      'tick',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { lastScheduleTime: threeMinutesAgo } }),
    ]);
    const job = await waitFor(
      async () => {
        const { items } = await c.getJson<{
          items: Array<{
            metadata: { name: string; ownerReferences?: Array<{ kind: string; name: string }> };
            status?: { succeeded?: number };
          }>;
        }>('jobs');
        return items.find((j) => j.metadata.ownerReferences?.[0]?.kind === 'CronJob' && j.status?.succeeded === 1);
      },
      { what: 'a completed Job of the CronJob' },
    );
    expect(job.metadata.name).toMatch(/^tick-\d+$/);
    const minute = Number(job.metadata.name.slice('tick-'.length));
    expect(Math.abs(minute * 60_000 - Date.now())).toBeLessThan(120_000);
    const cj = await waitFor(
      async () => {
        const got = await c.getJson<{
          status?: { lastScheduleTime?: string; lastSuccessfulTime?: string; active?: unknown[] };
        }>('cronjob', 'tick');
        return got.status?.lastSuccessfulTime && !got.status.active ? got : undefined;
      },
      { what: 'lastSuccessfulTime recorded' },
    );
    expect(Date.parse(cj.status!.lastScheduleTime!)).toBe(minute * 60_000);
  });
});
