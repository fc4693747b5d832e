import { distance } from 'fastest-levenshtein';

/** The known name closest to `name`, when it is near enough to be a typo (case is ignored). */
export function suggest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(name.length, Math.min(3, Math.max(2, Math.floor(name.length / 3))) + 1);
  const lower = name.toLowerCase();
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

export function didYouMean(name: string, known: readonly string[]): string {
  const s = suggest(name, known);
  return s === undefined ? '' : `; did you mean "${s}"?`;
}
