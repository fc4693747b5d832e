/**
 * resource.Quantity values (k8s.io/apimachinery/pkg/api/resource) read exactly enough to add and
 * compare them, as the QoS class needs: in units of 10^-9 as a bigint, so that `1` and `1000m`
 * compare equal and sums do not drift. Undefined for text that is not a quantity.
 */
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

export function quantityNanos(text: string): bigint | undefined {
  const m = QUANTITY.exec(text.trim());
  if (!m) return undefined;
  const [, sign, number, exponent, suffix = ''] = m;
  const [whole = '0', fraction = ''] = number!.split('.');
  // The mantissa as an integer and a power of ten: 1.5 → 15 × 10^-1.
  let value = BigInt((whole || '0') + fraction);
  let pow10 = -fraction.length + 9;
  if (exponent) pow10 += Number(exponent.slice(1));
  else if (suffix in BINARY) value *= 1n << BigInt(BINARY[suffix]!);
  else pow10 += DECIMAL[suffix]!;
  // Below a nanounit rounds up, as Quantity rounds up to its smallest scale.
  if (pow10 >= 0) value *= 10n ** BigInt(pow10);
  else {
    const div = 10n ** BigInt(-pow10);
    value = (value + div - 1n) / div;
  }
  return sign === '-' ? -value : value;
}
