// Differential fidelity of the embedded API server: every scenario of test/fidelity/scenarios is
// sent to a real kube-apiserver (scripts/control-plane/up.sh) and to the embedded server, the
// normalised answers are compared, and each difference is listed. `npx tsx bench/fidelity.ts`
// (FIDELITY_ONLY=<substring> runs only the scenarios whose name contains it; FIDELITY_DIFF_LINES
// and FIDELITY_DIFF_WIDTH show more of each difference). `--fuzz N [--seed S]` runs N cases of the
// differential fuzzer (bench/fuzz) instead, prints `fuzz: N cases, X% same` and the largest classes
// of difference (FUZZ_CLASSES of them, 20 unless told) and the figure of each kind (FUZZ_KINDS=<label part,…>
// keeps only some kinds).
import { parseArgs } from 'node:util';
import type { Target } from '../test/fidelity/http-target.js';
import { KNOWN_DIFFERENCES } from '../test/fidelity/known-differences.js';
import { describeDiff, summarise, summaryLine } from '../test/fidelity/runner.js';
import { runAll } from '../test/fidelity/run-all.js';
import { SCENARIOS } from '../test/fidelity/scenarios/index.js';
import { startServerPair } from '../test/fidelity/servers.js';
import { fuzz, fuzzLine, kindLines } from './fuzz/index.js';

const { values: args } = parseArgs({ options: { fuzz: { type: 'string' }, seed: { type: 'string' } } });

async function scenarios(real: Target, embedded: Target): Promise<void> {
  const only = process.env.FIDELITY_ONLY;
  const chosen = only ? SCENARIOS.filter((s) => s.name.includes(only)) : SCENARIOS;
  const results = await runAll(chosen, real, embedded);
  const known = new Map(KNOWN_DIFFERENCES.map((k) => [k.scenario, k]));
  const lines = Number(process.env.FIDELITY_DIFF_LINES ?? 6);
  const width = Number(process.env.FIDELITY_DIFF_WIDTH ?? 160);
  for (const r of results) {
    const o = r.outcome;
    if (o.kind === 'identical') continue;
    const why = known.get(r.name);
    const tag = why ? ` (known: ${why.area}: ${why.reason})` : '';
    if (o.kind === 'only-one-side') {
      console.log(
        `only-one-side ${r.name}${tag}\n  step ${o.step} ${o.request}: no answer from ${o.missing}: ${o.error}`,
      );
    } else
      console.log(`different ${r.name}${tag}\n  step ${o.step} ${o.request}\n${describeDiff(o.diff, lines, width)}`);
  }
  console.log(summaryLine(summarise(results)));
}

async function fuzzRun(real: Target, embedded: Target, n: number): Promise<void> {
  const seed = args.seed === undefined ? Date.now() % 2 ** 31 : Number(args.seed);
  console.log(`fuzz seed ${seed} (rerun with --seed ${seed})`);
  const { summary } = await fuzz(real, embedded, n, seed);
  for (const c of summary.classes.slice(0, Number(process.env.FUZZ_CLASSES ?? 20))) {
    const body = c.example.fuzzCase.steps.at(-1)?.body;
    const shown = typeof body === 'string' ? body.slice(0, 400) : `<protobuf, ${body?.length ?? 0} bytes>`;
    console.log(`${c.count}× ${c.key}\n  e.g. case ${c.example.fuzzCase.id}: ${shown}`);
  }
  console.log('fuzz per kind (same, same/cases, kind):');
  for (const line of kindLines(summary)) console.log(line);
  console.log(fuzzLine(seed, summary));
}

const pair = await startServerPair();
try {
  if (args.fuzz === undefined) await scenarios(pair.real, pair.embedded);
  else await fuzzRun(pair.real, pair.embedded, Number(args.fuzz));
} finally {
  await pair.stop();
}
