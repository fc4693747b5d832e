// The manifests pass flags to `flowops run` and `flowops worker`; a flag the command does not know
// makes commander exit and the pod crash-loop. Checks every flag the kustomize tree and the chart
// pass against the command's own --help, and that flags the manifests must use once they exist
// (--webhook-listen) are passed as soon as the command has them. Skipped while a command is absent.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FLOWOPS_BIN, ROOT } from '../helpers/cli.js';
import { find, flagsOf, helmTemplate, kustomize, parseManifests } from './manifests.js';

const help = (args: string[]) =>
  spawnSync(process.execPath, [FLOWOPS_BIN, ...args, '--help'], { cwd: ROOT, encoding: 'utf8' });

const kustomized = parseManifests(kustomize('config/default'));
// The chart passes every optional flag by default (leader-election timings included).
const charted = parseManifests(helmTemplate(['redis.bundled=true']));
const argsOf = (objs: ReturnType<typeof parseManifests>, name: string): string[] =>
  find(objs, 'Deployment', name).spec.template.spec.containers[0].args;

/** Flags the manifests must pass once the command knows them, and the value they pass. */
const WANTED: Record<string, Record<string, string>> = {
  run: { 'webhook-listen': '0.0.0.0:8081', 'metrics-listen': '0.0.0.0:8080', 'lease-name': 'flowops-leader' },
  worker: { 'metrics-listen': '0.0.0.0:8080', concurrency: '4' },
};

describe.each([
  ['run', 'flowops-controller'],
  ['worker', 'flowops-worker'],
])('flowops %s', (command, deployment) => {
  it(`knows every flag the ${deployment} Deployment passes, and gets the ones it serves with`, (ctx) => {
    const r = help([command]);
    // An unknown command prints the top-level help instead.
    if (!r.stdout.startsWith(`Usage: flowops ${command} `))
      ctx.skip(`\`flowops ${command}\` is not registered in src/cli/main.ts yet`);
    expect(r.status, r.stderr).toBe(0);
    const known = new Set([...r.stdout.matchAll(/^\s+(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1]!));
    for (const [source, args] of [
      ['config/manager', argsOf(kustomized, deployment)],
      ['charts/flowops', argsOf(charted, deployment)],
    ] as const) {
      expect(args[0]).toBe(command);
      const passed = flagsOf(args);
      for (const flag of passed.keys())
        expect(known.has(flag), `${source} passes --${flag}, unknown to \`flowops ${command}\``).toBe(true);
      for (const [flag, value] of Object.entries(WANTED[command]!)) {
        if (known.has(flag))
          expect(
            passed.get(flag),
            `${source} should pass --${flag}=${value} now that \`flowops ${command}\` has it`,
          ).toBe(value);
      }
    }
  });
});
