import { afterAll, beforeAll, expect, it } from 'vitest';
import { KNOWN_DIFFERENCES } from '../fidelity/known-differences.js';
import { runAll } from '../fidelity/run-all.js';
import { describeDiff, type ScenarioResult } from '../fidelity/runner.js';
import { SCENARIOS } from '../fidelity/scenarios/index.js';
import { startServerPair, type ServerPair } from '../fidelity/servers.js';
import { describeReal } from './control-plane.js';

function describeResult(r: ScenarioResult): string {
  const o = r.outcome;
  if (o.kind === 'identical') return `${r.name}: identical`;
  if (o.kind === 'only-one-side')
    return `${r.name}: step ${o.step} ${o.request}: no answer from ${o.missing}: ${o.error}`;
  return `${r.name}: step ${o.step} ${o.request}\n${describeDiff(o.diff)}`;
}

describeReal('the embedded API server answers as kube-apiserver does (test/fidelity scenarios)', () => {
  let pair: ServerPair | undefined;
  let results: ScenarioResult[] = [];
  beforeAll(async () => {
    pair = await startServerPair();
    results = await runAll(SCENARIOS, pair.real, pair.embedded);
  }, 600_000);
  afterAll(async () => {
    await pair?.stop();
  }, 90_000);

  it('differs only where test/fidelity/known-differences.ts says why', () => {
    const known = new Set(KNOWN_DIFFERENCES.map((k) => k.scenario));
    const unexplained = results.filter((r) => r.outcome.kind !== 'identical' && !known.has(r.name));
    expect(unexplained.map(describeResult), 'differences with no entry in known-differences.ts').toEqual([]);
  });

  it('lists no known difference that has gone (the list stays truthful)', () => {
    const byName = new Map(results.map((r) => [r.name, r]));
    const stale = KNOWN_DIFFERENCES.filter(
      (k) =>
        byName.get(k.scenario)?.outcome.kind !== 'different' &&
        byName.get(k.scenario)?.outcome.kind !== 'only-one-side',
    );
    expect(stale.map((k) => `${k.scenario}: ${byName.has(k.scenario) ? 'now identical' : 'no such scenario'}`)).toEqual(
      [],
    );
  });

  it('runs at least 1,500 scenarios, 97 % of them identical', () => {
    expect(results.length).toBeGreaterThanOrEqual(1_500);
    const identical = results.filter((r) => r.outcome.kind === 'identical').length;
    expect(identical / results.length).toBeGreaterThanOrEqual(0.97);
  });
});
