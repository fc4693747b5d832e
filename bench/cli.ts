// CLI start-up benchmark: prints figures, asserts nothing.
//   npx tsx bench/cli.ts [--runs 7]
// Each command is started as a user starts it (node bin/flowops.js …) and timed against a bare
// `node -e ''` start in the same run; medians of --runs starts. `up` is timed to its /healthz
// answering and to the seed operator's StatefulSet existing (the built-in Git source applied it).
// Run `npm run build` first: bin/flowops.js runs dist/ only when it is current.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, FLOWOPS_BIN } from '../test/helpers/cli.js';
import { sourceState } from '../bin/source-state.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 7);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeStart(args: string[]): number {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    if (r.status !== 0 && args.length > 2) throw new Error(`${args.join(' ')} exited ${r.status}`);
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

async function timeUp(): Promise<{ healthz: number; child: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cli-up-'));
  const t0 = performance.now();
  const up = spawn(
    process.execPath,
    [FLOWOPS_BIN, 'up', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--no-kubeconfig-merge'],
    { cwd: ROOT, env: { ...process.env, HOME: dir, FLOWOPS_LOG_LEVEL: 'warn' } },
  );
  let out = '';
  up.stdout.on('data', (d: Buffer) => (out += d.toString()));
  up.stderr.resume();
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  let token: string | undefined;
  let healthz = 0;
  let child = 0;
  try {
    while (Date.now() < deadline && !child) {
      // The first line names the API server as soon as it listens (HTTPS, and plain HTTP on the
      // same loopback port); the web view's link, printed once all is up, carries the admin token.
      url ??= /https:\/\/(127\.0\.0\.1:\d+)/.exec(out)?.[1]?.replace(/^/, 'http://');
      token ??= /\/ui\/\?token=([\w-]+)/.exec(out)?.[1];
      if (url) {
        try {
          if (!healthz && (await fetch(`${url}/healthz`)).status === 200) healthz = performance.now() - t0;
          if (
            healthz &&
            token &&
            (
              await fetch(`${url}/apis/apps/v1/namespaces/default/statefulsets/my-postgres`, {
                headers: { Authorization: `Bearer ${token}` },
              })
            ).status === 200
          )
            child = performance.now() - t0;
        } catch {
          // not listening yet
        }
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    up.kill('SIGTERM');
    await new Promise((r) => up.once('exit', r));
  }
  return { healthz, child };
}

const bare = timeStart(['-e', '']);
const help = timeStart([FLOWOPS_BIN, '--help']);
const validate = timeStart([FLOWOPS_BIN, 'validate', 'repos-example/database-operator/flow.yaml']);
const ups = [];
for (let i = 0; i < Math.min(RUNS, 3); i++) ups.push(await timeUp());
const stamp = existsSync(join(ROOT, 'dist/.build-stamp'))
  ? (JSON.parse(readFileSync(join(ROOT, 'dist/.build-stamp'), 'utf8')) as { newest: number; files: number })
  : undefined;
const now = sourceState(join(ROOT, 'src'));
const current = stamp !== undefined && stamp.files === now.files && now.newest <= stamp.newest;

console.log(
  `FlowOps CLI start-up (medians of ${RUNS} starts; ${current ? 'the compiled dist/' : 'src/ through tsx: dist/ is stale or missing, run npm run build'})`,
);
console.log(`bare node -e '': ${bare.toFixed(0)} ms`);
console.log(`flowops --help: ${help.toFixed(0)} ms, ratio ${(help / bare).toFixed(2)} (goal ≤ 2)`);
console.log(`flowops validate <file>: ${validate.toFixed(0)} ms, ratio ${(validate / bare).toFixed(2)} (goal ≤ 3)`);
console.log(`flowops up -> /healthz answers: ${median(ups.map((u) => u.healthz)).toFixed(0)} ms (goal ≤ 1000)`);
console.log(`flowops up -> seed StatefulSet present: ${median(ups.map((u) => u.child)).toFixed(0)} ms (goal ≤ 2000)`);
