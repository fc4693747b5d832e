import type { Command } from 'commander';
import type { DiffFlags } from './diff-run.js';
import { summaryOf } from './command-table.js';

/** `flowops diff`: what a push would change in the live cluster; see diff-run.ts. */
export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description(summaryOf('diff'))
    .argument('[dir]', "folder holding the FlowSource's path (a checkout of it); default: the current folder")
    .option('--source <namespace/name>', 'the FlowSource to compare with (default: the only one in the cluster)')
    .option(
      '--commit <sha>',
      'read the definitions from this commit of the Git repository in the current folder instead of a folder',
    )
    .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
    .action(async (dir: string | undefined, flags: DiffFlags) => {
      // Loaded when the command runs, so that `flowops --help` does not pay for the client and the sync.
      const { runDiff } = await import('./diff-run.js');
      process.exitCode = await runDiff(dir, flags, {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
      });
    });
}
