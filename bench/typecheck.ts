// Template type-check benchmark: prints figures, asserts nothing.
//   npx tsx bench/typecheck.ts [--flows 1000] [--rounds 6] [--warmup 2]
// Validates one commit of --flows Flows (copies of the four repos-example Flows, renamed) and their
// CRDs the way a Git sync does (planCommit, every file touched), with and without the template type
// check, in alternating rounds whose order flips each round: a new commit each run, then one commit
// validated again and again (what caches keyed by text give). Goal: the type check adds ≤ 20 %.
// Printed: medians of each side and of the rounds' ratios, each side's least CPU (other work on a
// shared machine only adds), and the check's own time measured inside the with-check runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planCommit, type DefinitionFile } from '../src/sync/plan.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const FLOWS = arg('flows', 1000);
const ROUNDS = arg('rounds', 6);
/** Alternating rounds run first and not counted: the JIT's warm-up would otherwise skew the first rounds. */
const WARMUP = arg('warmup', 2);

const root = join(import.meta.dirname, '..', 'repos-example');
const examples = ['database-operator', 'webapp-operator', 'webhook-notifier', 'config-bundle'];
const crds: DefinitionFile[] = examples.map((d) => ({
  path: `${d}/crd.yaml`,
  text: readFileSync(join(root, d, 'crd.yaml'), 'utf8'),
}));
/** A commit of FLOWS Flows; `tag` makes every text new, so no cache keyed by text has seen it. */
function commitFiles(tag: string): DefinitionFile[] {
  const flows = Array.from({ length: FLOWS }, (_, i) => {
    const d = examples[i % examples.length] ?? 'database-operator';
    // Every copy differs in its name and in each manifest (a label).
    const text = readFileSync(join(root, d, 'flow.yaml'), 'utf8')
      .replace(/^ {2}name: (.*)$/m, `  name: $1-${i}`)
      .replace(
        /^( +)metadata:\n( +)name: (.*)$/gm,
        (_m, a: string, b: string, n: string) =>
          `${a}metadata:\n${b}labels: { bench-copy: "${tag}-${i}" }\n${b}name: ${n}`,
      );
    return { path: `flows/${d}-${i}.yaml`, text };
  });
  return [...crds, ...flows];
}

interface Took {
  wall: number;
  /** The process's CPU time (user + system): what a loaded machine's other work does not add to. */
  cpu: number;
  /**
   * Of `wall`, what the type check itself took, by the monotonic clock around its calls (planCommit's
   * typecheckTime: a CPU-time system call per file would slow the run it measures on a loaded machine).
   */
  check: number;
}

function run(files: readonly DefinitionFile[], typecheck: boolean): Took {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const typecheckTime = { ms: 0 };
  const plan = planCommit({
    files,
    removed: [],
    full: true,
    inventory: [],
    defaultNamespace: 'default',
    typecheck,
    typecheckTime,
  });
  const cpu = process.cpuUsage(cpuStart);
  const took = {
    wall: performance.now() - start,
    cpu: (cpu.user + cpu.system) / 1000,
    check: typecheckTime.ms,
  };
  if (!plan.ok)
    throw new Error(
      `bench commit rejected: ${plan.errors
        .slice(0, 3)
        .map((e) => `${e.file}:${e.line}: ${e.message}`)
        .join('; ')}`,
    );
  if (plan.warnings.length) throw new Error(`bench commit has ${plan.warnings.length} warnings`);
  return took;
}

// Warm-up: module loading, the vendored schemas' first read, JIT.
run(commitFiles('warm-up-a'), true);
run(commitFiles('warm-up-b'), false);

/**
 * `cold`: every run validates a commit no check has seen (a new commit's first sync). `again`: the
 * same commit validated once more (the drift check of every interval, the webhook, flowops diff and
 * the preview seeing Flows a sync already read).
 */
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (x: number): string => `${x.toFixed(0)} ms`;
let fresh = 0;
for (const mode of ['cold', 'again'] as const) {
  const times = { without: [] as Took[], with: [] as Took[] };
  const ratios = { wall: [] as number[], cpu: [] as number[] };
  const seen = commitFiles('seen');
  run(seen, true);
  for (let round = -WARMUP; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    const took = new Map<boolean, Took>();
    for (const typecheck of order) {
      const t = run(mode === 'cold' ? commitFiles(`run-${fresh++}`) : seen, typecheck);
      took.set(typecheck, t);
      if (round >= 0) times[typecheck ? 'with' : 'without'].push(t);
    }
    if (round < 0) continue;
    const [w, wo] = [took.get(true), took.get(false)];
    if (w && wo) {
      ratios.wall.push(w.wall / wo.wall);
      ratios.cpu.push(w.cpu / wo.cpu);
    }
  }
  console.log(
    `${mode === 'cold' ? 'a new commit' : 'the same commit again'}: ${FLOWS} Flows + ${crds.length} CRDs ` +
      `(planCommit), ${ROUNDS} alternating rounds after ${WARMUP} not counted, medians (wall / CPU):`,
  );
  const both = (xs: Took[]): string => `${ms(median(xs.map((x) => x.wall)))} / ${ms(median(xs.map((x) => x.cpu)))}`;
  const pct = (xs: number[]): string => `${((median(xs) - 1) * 100).toFixed(1)} %`;
  console.log(`  without type check: ${both(times.without)}`);
  console.log(`  with type check:    ${both(times.with)}`);
  const cpuPct = `${pct(ratios.cpu)} CPU`;
  console.log(`  added: ${pct(ratios.wall)} wall, ${cpuPct} (median of the rounds' ratios; goal ≤ 20 %)`);
  // Other work on a shared machine only adds to a run's CPU time: each side's least is the least disturbed.
  const least = (xs: Took[]): number => Math.min(...xs.map((x) => x.cpu));
  const [lw, lwo] = [least(times.with), least(times.without)];
  // The same run's share: the check's own time against the rest of that run, less moved by other load.
  const shares = times.with.map((t) => t.check / Math.max(1, t.wall - t.check));
  const own = median(times.with.map((t) => t.check));
  console.log(
    `  inside the with-check runs: the check's own time ${ms(own)} (wall), added ${pct(shares.map((x) => 1 + x))} of the rest`,
  );
  const leastPct = `${((lw / lwo - 1) * 100).toFixed(1)} %`;
  console.log(`  least CPU of the rounds: ${ms(lwo)} without, ${ms(lw)} with, added ${leastPct}`);
}
