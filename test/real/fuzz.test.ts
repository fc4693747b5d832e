// The differential fuzzer (bench/fuzz) with a fixed seed against a real kube-apiserver and the
// embedded server: the same-rate stays above a floor, and no case makes the embedded server fail
// (no 5xx where the real one answered otherwise, no missing answer, and it still serves afterwards).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fuzz } from '../../bench/fuzz/index.js';
import type { CaseResult } from '../../bench/fuzz/run.js';
import type { FuzzSummary } from '../../bench/fuzz/report.js';
import { send } from '../fidelity/http-target.js';
import { startServerPair, type ServerPair } from '../fidelity/servers.js';
import { describeReal } from './control-plane.js';

const SEED = 20261202;
const CASES = 300;
/** Measured at 96–97 % on 1,500-case runs; the floor leaves room for a small sample's spread. */
const FLOOR = 0.93;

describeReal('differential fuzzing against kube-apiserver (bench/fuzz)', () => {
  let pair: ServerPair | undefined;
  let summary: FuzzSummary | undefined;
  let results: CaseResult[] = [];
  beforeAll(async () => {
    pair = await startServerPair();
    ({ summary, results } = await fuzz(pair.real, pair.embedded, CASES, SEED));
  }, 600_000);
  afterAll(async () => {
    await pair?.stop();
  }, 90_000);

  it(`answers at least ${FLOOR * 100} % of ${CASES} cases (seed ${SEED}) as kube-apiserver does`, () => {
    const top = summary?.classes.slice(0, 10).map((c) => `${c.count}× ${c.key}`) ?? [];
    expect(summary?.cases).toBe(CASES);
    expect((summary?.same ?? 0) / CASES, top.join('\n')).toBeGreaterThanOrEqual(FLOOR);
  });

  it('never fails on the embedded side: no 5xx, no missing answer, and it still serves', async () => {
    const broken = results.filter((r) => r.embedded.some((s) => s.startsWith('5') || s.startsWith('no answer')));
    expect(
      broken.map((r) => `case ${r.fuzzCase.id} ${r.fuzzCase.kind} ${r.fuzzCase.mutation}: ${r.embedded.join(' → ')}`),
    ).toEqual([]);
    const a = await send(pair?.embedded ?? { name: 'embedded', url: 'http://127.0.0.1:1' }, {
      method: 'GET',
      path: '/readyz',
      headers: {},
      timeoutMs: 10_000,
    });
    expect(a.status).toBe(200);
  });

  it('generates the same cases for the same seed', async () => {
    const { generateCases } = await import('../../bench/fuzz/cases.js');
    const strip = (n: number) =>
      generateCases(SEED, n, 'x').map((c) => [
        c.kind,
        c.mutation,
        c.steps.map((s) => (typeof s.body === 'string' ? s.body : s.body.toString('base64'))),
      ]);
    expect(strip(50)).toEqual(strip(50));
  });
});
