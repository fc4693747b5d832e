import type { Command } from 'commander';
import { durationFlag } from './cluster-flags.js';
import { summaryOf } from './command-table.js';
import { withKube } from './with-kube.js';

// `flowops rollout status|promote|pause|resume|abort flow NAME`, as `kubectl rollout` is for a
// Deployment. Each subcommand loads its implementation when it runs.

const CONTROLS = {
  promote: 'move a stage paused until promoted (or by a duration) on to the next stage',
  pause: 'stop the rollout where it is: no object moves until resumed',
  resume: 'go on with a rollout paused by "flowops rollout pause"',
  abort: 'stop the rollout and return the objects it reached to the previous generation',
} as const;

/** kubectl's `--watch=false`: the flag alone is true, any value but "false" is true. */
const boolFlag = (v: string): boolean => v !== 'false';

export function registerRolloutCommand(program: Command): void {
  const rollout = program.command('rollout').description(summaryOf('rollout'));
  rollout
    .command('status')
    .description(
      "show a Flow's rollout: by default wait with progress lines until it is Complete (exit 0), " +
        'Halted, RolledBack or Aborted (exit 1)',
    )
    .argument('<kind>', 'flow')
    .argument('<name>', '[namespace/]name')
    .option('-n, --namespace <ns>', "namespace (default: the context's, else default)")
    .option(
      '-w, --watch [bool]',
      'wait for the rollout to end; --watch=false prints the stages, generations and failed objects once',
      boolFlag,
      true,
    )
    .option('--timeout <d>', 'with --watch: give up after this long (exit 1); 0 waits for ever', durationFlag, 0)
    .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
    .action(
      async (
        kind: string,
        name: string,
        flags: { namespace?: string; watch: boolean; timeout: number; kubeconfig?: string },
      ) => {
        const { runStatus } = await import('./rollout/rollout-run.js');
        const said = await withKube(flags, (kube) =>
          runStatus(kube, kind, name, flags, (line) => process.stdout.write(line)),
        );
        process.stdout.write(said.out);
        process.stderr.write(said.err);
        process.exitCode = said.code;
      },
    );
  for (const [control, description] of Object.entries(CONTROLS) as Array<[keyof typeof CONTROLS, string]>) {
    rollout
      .command(control)
      .description(description)
      .argument('<kind>', 'flow')
      .argument('<name>', '[namespace/]name')
      .option('-n, --namespace <ns>', "namespace (default: the context's, else default)")
      .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
      .action(async (kind: string, name: string, flags: { namespace?: string; kubeconfig?: string }) => {
        const { runControl } = await import('./rollout/rollout-run.js');
        process.stdout.write(await withKube(flags, (kube) => runControl(kube, control, kind, name, flags.namespace)));
      });
  }
}
