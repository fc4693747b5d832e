/** Go-style durations as Flows write them: "500ms", "1s", "5m", "1h30m". */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s)) throw new Error(`invalid duration "${text}": expected a number with a unit (ms, s, m, h), e.g. "30s" or "1m30s"`);
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
