import { ApiSchemaError } from './errors.js';
/** Go-style durations as Flows write them: "500ms", "1s", "5m", "1h30m". */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s))
    throw new ApiSchemaError(
      'InvalidDuration',
      `invalid duration "${text}": expected a number with a unit (ms, s, m, h), e.g. "30s" or "1m30s"`,
    );
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return total;
}

export function isDuration(text: string): boolean {
  try {
    parseDuration(text);
    return true;
  } catch {
    return false;
  }
}

/** A measured wall time as parseDuration reads it back: "42ms" below a second, "1.25s", "2m5s". */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return `${whole}ms`;
  if (whole < 60_000) return `${Number((whole / 1000).toFixed(2))}s`;
  const minutes = Math.floor(whole / 60_000);
  const seconds = Math.round((whole % 60_000) / 1000);
  return seconds ? `${minutes}m${seconds}s` : `${minutes}m`;
}
