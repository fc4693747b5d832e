import type { Command } from 'commander';
import { summaryOf } from './command-table.js';
import type { PreviewFlags } from './preview-run.js';

/** `flowops preview`: one pass of a FlowSource's pull-request previews; see preview-run.ts. */
export function registerPreviewCommand(program: Command): void {
  program
    .command('preview')
    .description(summaryOf('preview'))
    .option('--source <namespace/name>', 'the FlowSource whose pull requests to preview (default: the only one)')
    .option('--pr <number>', 'only this pull (merge) request')
    .option('--data <dir>', 'folder for the fetched pull-request heads (default: a temporary one)')
    .option('--view-url <url>', "the web view's address, linked from the comment and the status")
    .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
    .action(async (flags: PreviewFlags) => {
      const { runPreview } = await import('./preview-run.js');
      process.exitCode = await runPreview(flags, {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
      });
    });
}
