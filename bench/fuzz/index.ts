// Differential fuzzing of the embedded API server against kube-apiserver: cases derived from each
// covered kind's OpenAPI schema (cases.ts), sent to both (run.ts), compared by code, reason and
// causes (compare.ts). `npx tsx bench/fidelity.ts --fuzz N [--seed S]`.
import type { Target } from '../../test/fidelity/http-target.js';
import { generateCases } from './cases.js';
import { isolatedNamespace } from './kinds.js';
import { summariseFuzz, type FuzzSummary } from './report.js';
import { createNamespace, runCases, type CaseResult } from './run.js';

export { fuzzLine, kindLines } from './report.js';

export async function fuzz(
  real: Target,
  embedded: Target,
  n: number,
  seed: number,
): Promise<{ summary: FuzzSummary; results: CaseResult[] }> {
  const ns = `fuzz-${seed}`;
  for (const name of [ns, isolatedNamespace(ns)]) {
    await createNamespace(real, name);
    await createNamespace(embedded, name);
  }
  const results = await runCases(generateCases(seed, n, ns), real, embedded);
  return { summary: summariseFuzz(results), results };
}
