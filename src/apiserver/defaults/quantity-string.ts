import { quantityNanos } from './quantity.js';

/**
 * resource.Quantity's String() (k8s.io/apimachinery/pkg/api/resource/quantity.go,
 * CanonicalizeBytes): the suffix family the text was written in (binary Ki…, decimal m/k/M…, or an
 * exponent), the largest unit that keeps the number whole. Binary values below 1024 or not whole
 * are shown in decimal, as upstream does. Quantities are kept in nano units (defaults/quantity.ts).
 */
export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

export interface Quantity {
  nanos: bigint;
  format: QuantityFormat;
}

const NANO = 1_000_000_000n;
const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M' };
Object.assign(DECIMAL_SUFFIX, { 9: 'G', 12: 'T', 15: 'P', 18: 'E' });
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

export function parseQuantity(text: string): Quantity | undefined {
  const nanos = quantityNanos(text);
  if (nanos === undefined) return undefined;
  const t = text.trim();
  const format: QuantityFormat = /[KMGTPE]i$/.test(t)
    ? 'BinarySI'
    : /[eE][+-]?\d+$/.test(t)
      ? 'DecimalExponent'
      : 'DecimalSI';
  return { nanos, format };
}

export function quantityString(q: Quantity): string {
  const { nanos } = q;
  if (nanos === 0n) return '0';
  const abs = nanos < 0n ? -nanos : nanos;
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && nanos % NANO === 0n) {
    let v = nanos / NANO;
    let i = 0;
    while (v % 1024n === 0n && i < BINARY_SUFFIX.length - 1) {
      v /= 1024n;
      i++;
    }
    return `${v}${BINARY_SUFFIX[i]}`;
  }
  let v = nanos;
  let exp = -9;
  while (v % 1000n === 0n && exp < 18) {
    v /= 1000n;
    exp += 3;
  }
  if (q.format === 'DecimalExponent') return exp === 0 ? `${v}` : `${v}e${exp}`;
  return `${v}${DECIMAL_SUFFIX[exp] ?? ''}`;
}

/** The canonical text of a quantity's text; text that is no quantity is returned as it is. */
export function canonicalQuantity(text: string): string {
  const q = parseQuantity(text);
  return q ? quantityString(q) : text;
}
