import type { Command } from 'commander';

export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check Flow files (or directories of them) without a cluster; exit code 1 on any error')
    .argument('<paths...>', 'YAML files or directories to search for *.yaml / *.yml')
    .action(async (paths: string[]) => {
      // Loaded when the command runs, so that `flowops --help` and other commands do not pay for the schemas.
      const { runValidate } = await import('./validate-run.js');
      process.exitCode = runValidate(paths, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) });
    });
}
