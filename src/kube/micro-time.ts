/** Kubernetes MicroTime: RFC 3339 with exactly six fractional digits, e.g. 2026-11-30T04:07:35.980000Z. */
export function microTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function parseMicroTime(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}
