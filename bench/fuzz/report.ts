// The figure and the largest classes of difference, as bench/fidelity.ts --fuzz prints them.
import type { CaseResult } from './run.js';

export interface FuzzSummary {
  cases: number;
  same: number;
  percent: number;
  classes: Array<{ key: string; count: number; example: CaseResult }>;
  /** Per kind label: cases and how many were answered alike. */
  kinds: Array<{ kind: string; cases: number; same: number }>;
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
  const perKind = new Map<string, { cases: number; same: number }>();
  for (const r of results) {
    const k = perKind.get(r.fuzzCase.kind) ?? { cases: 0, same: 0 };
    k.cases++;
    if (r.same) k.same++;
    perKind.set(r.fuzzCase.kind, k);
  }
  const kinds = [...perKind.entries()]
    .map(([kind, v]) => ({ kind, ...v }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
  return { cases: results.length, same, percent, classes, kinds };
}

export function fuzzLine(seed: number, s: FuzzSummary): string {
  return `fuzz: ${s.cases} cases, ${s.percent.toFixed(1)}% same (seed ${seed})`;
}

/** One line per kind, `  93.8%  45/48  apps/v1 Deployment`, worst first. */
export function kindLines(s: FuzzSummary): string[] {
  const pct = (k: { cases: number; same: number }): number => (100 * k.same) / k.cases;
  return [...s.kinds]
    .sort((a, b) => pct(a) - pct(b) || a.kind.localeCompare(b.kind))
    .map((k) => `${pct(k).toFixed(1).padStart(6)}%  ${`${k.same}/${k.cases}`.padStart(7)}  ${k.kind}`);
}
