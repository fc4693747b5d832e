// The figure and the largest classes of difference, as bench/fidelity.ts --fuzz prints them.
import type { CaseResult } from './run.js';

export interface FuzzSummary {
  cases: number;
  same: number;
  percent: number;
  classes: Array<{ key: string; count: number; example: CaseResult }>;
}

export function summariseFuzz(results: CaseResult[]): FuzzSummary {
  const same = results.filter((r) => r.same).length;
  const byClass = new Map<string, { count: number; example: CaseResult }>();
  for (const r of results) {
    if (r.same) continue;
    const answers = `real ${r.real.join(' → ')} / embedded ${r.embedded.join(' → ')}`;
    const key = `${r.fuzzCase.kind} ${r.fuzzCase.mutation}: ${answers}`;
    const entry = byClass.get(key);
    if (entry) entry.count++;
    else byClass.set(key, { count: 1, example: r });
  }
  const classes = [...byClass.entries()].map(([key, v]) => ({ key, ...v })).sort((a, b) => b.count - a.count);
  const percent = results.length ? (100 * same) / results.length : 100;
  return { cases: results.length, same, percent, classes };
}

export function fuzzLine(seed: number, s: FuzzSummary): string {
  return `fuzz: ${s.cases} cases, ${s.percent.toFixed(1)}% same (seed ${seed})`;
}
