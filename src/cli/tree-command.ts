import type { Command } from 'commander';
import { summaryOf } from './command-table.js';

interface TreeFlags {
  namespace?: string;
  kubeconfig?: string;
  output?: string;
}

/**
 * `flowops tree KIND/NAME` (and `flowops why`, the same): the causal chain of a watched object or
 * a Flow — FlowSource → commit → Flow → object → last run → children with their health.
 */
export function registerTreeCommand(program: Command): void {
  for (const name of ['tree', 'why']) {
    program
      .command(name)
      .description(summaryOf(name))
      .argument('<object>', 'KIND/NAME, e.g. database/my-postgres or flow/database-operator')
      .option('-n, --namespace <ns>', 'namespace of the object', 'default')
      .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
      .option('-o, --output <format>', 'json for tools (default: a tree, coloured on a terminal)')
      .action(async (arg: string, flags: TreeFlags) => {
        const { runTree } = await import('./tree/tree-run.js');
        process.exitCode = await runTree(arg, flags);
      });
  }
}
