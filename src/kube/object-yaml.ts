// Objects as YAML for people and for text comparison (render's golden files, diff's hunks): keys
// in the order kubectl prints them (identity first), the rest sorted, so that the same object is
// always the same text whatever order the server or a template produced its fields in.

import { stringify, type Pair } from 'yaml';

const FIRST = ['apiVersion', 'kind', 'metadata', 'name', 'namespace'];

function keyOrder(a: Pair, b: Pair): number {
  const ka = String(a.key);
  const kb = String(b.key);
  const ra = FIRST.indexOf(ka);
  const rb = FIRST.indexOf(kb);
  if (ra !== rb) return (ra < 0 ? FIRST.length : ra) - (rb < 0 ? FIRST.length : rb);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export function objectYaml(value: unknown): string {
  return stringify(value, { sortMapEntries: keyOrder, lineWidth: 0 });
}
