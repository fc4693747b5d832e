/** intstr.GetScaledValueFromIntOrPercent: `25%` of `total`, rounded up or down; a number as it is. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean, fallback: string): number {
  const value = v ?? fallback;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) return Number.parseInt(value, 10) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}
