import type { Command } from 'commander';
import { summaryOf } from './command-table.js';

export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description(summaryOf('validate'))
    .argument('<paths...>', 'YAML files or directories to search for *.yaml / *.yml')
    .action(async (paths: string[]) => {
      // Loaded when the command runs, so that `flowops --help` and other commands do not pay for the schemas.
      const { runValidate } = await import('./validate-run.js');
      process.exitCode = runValidate(paths, {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
      });
    });
}
