// Differential fidelity of the embedded API server: every scenario of test/fidelity/scenarios is
// sent to a real kube-apiserver (scripts/control-plane/up.sh) and to the embedded server, the
// normalised answers are compared, and each difference is listed. `npx tsx bench/fidelity.ts`
// (FIDELITY_ONLY=<substring> runs only the scenarios whose name contains it; FIDELITY_DIFF_LINES
// and FIDELITY_DIFF_WIDTH show more of each difference).
import { KNOWN_DIFFERENCES } from '../test/fidelity/known-differences.js';
import { describeDiff, summarise, summaryLine } from '../test/fidelity/runner.js';
import { runAll } from '../test/fidelity/run-all.js';
import { SCENARIOS } from '../test/fidelity/scenarios/index.js';
import { startServerPair } from '../test/fidelity/servers.js';

const only = process.env.FIDELITY_ONLY;
const scenarios = only ? SCENARIOS.filter((s) => s.name.includes(only)) : SCENARIOS;
const pair = await startServerPair();
try {
  const results = await runAll(scenarios, pair.real, pair.embedded);
  const known = new Map(KNOWN_DIFFERENCES.map((k) => [k.scenario, k]));
  for (const r of results) {
    const o = r.outcome;
    if (o.kind === 'identical') continue;
    const why = known.get(r.name);
    const tag = why ? ` (known: ${why.area}: ${why.reason})` : '';
    if (o.kind === 'only-one-side') console.log(`only-one-side ${r.name}${tag}\n  step ${o.step} ${o.request}: no answer from ${o.missing}: ${o.error}`);
    else console.log(`different ${r.name}${tag}\n  step ${o.step} ${o.request}\n${describeDiff(o.diff, Number(process.env.FIDELITY_DIFF_LINES ?? 6), Number(process.env.FIDELITY_DIFF_WIDTH ?? 160))}`);
  }
  console.log(summaryLine(summarise(results)));
} finally {
  await pair.stop();
}
