import type { Command } from 'commander';
import type { RenderFlags } from './render-run.js';
import { summaryOf } from './command-table.js';

/** `flowops render`: Flows run against sample objects with no cluster; see render-run.ts. */
export function registerRenderCommand(program: Command): void {
  program
    .command('render')
    .description(summaryOf('render'))
    .argument(
      '<paths...>',
      'Flow and CRD files, or directories of them (Helm charts and kustomize bases inside are left to the steps)',
    )
    .requiredOption(
      '--objects <dir|file>',
      'sample watched objects to reconcile (YAML); repeat for more',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option('--stub <file>', 'outputs of script and http steps: "<step>: {key: value}" or "<flow>/<step>: {...}"')
    .option('--allow-scripts', 'run script steps for real instead of reading their outputs from --stub')
    .option('--allow-http', 'run http steps for real instead of reading their outputs from --stub')
    .option(
      '--source-dir <dir>',
      "folder relative chart and kustomize paths resolve against (default: the nearest folder above each Flow's file that holds them)",
    )
    .option(
      '--expect <dir>',
      'compare with golden files <Kind>-<namespace>-<name>.yaml in DIR; print a unified diff and exit 1 on any difference',
    )
    .option('--update', 'with --expect: write the golden files instead of comparing')
    .option(
      '--now <time>',
      'what {{ .Now }} renders as (fixed, so that golden files do not change with the clock)',
      '2025-01-01T00:00:00Z',
    )
    .option('--timeout <duration>', 'how long to wait for the reconciles to settle', '60s')
    .action(async (paths: string[], flags: RenderFlags) => {
      // Loaded when the command runs, so that `flowops --help` does not pay for the server and the engine.
      const { runRender } = await import('./render-run.js');
      process.exitCode = await runRender(paths, flags, {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
      });
    });
}
