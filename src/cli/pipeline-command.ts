import type { Command } from 'commander';
import { summaryOf } from './command-table.js';
// Static: this module is loaded only for `flowops pipeline`, and the bundle cannot give a dynamic
// import of a CommonJS package (yaml) its named exports.
import { stringify } from 'yaml';

/**
 * `flowops pipeline eval|graph`: try an Operator before deploying it. `eval` prints what each
 * controller's pipeline produces for a set of objects (a dry run, no cluster needed); `graph`
 * prints a Mermaid diagram of its controllers, sources, views and targets.
 */
export function registerPipelineCommand(program: Command): void {
  const cmd = program.command('pipeline').description(summaryOf('pipeline'));
  cmd
    .command('eval')
    .description('print what each controller of an Operator produces for a set of objects')
    .requiredOption('--operator <file>', 'YAML with one or more Operators')
    .requiredOption('--input <file>', 'YAML/JSON objects (documents, a List or an array)')
    .option('-o, --output <format>', 'yaml or json', 'yaml')
    .action(async (opts: { operator: string; input: string; output: string }) => {
      // Loaded on use, so other commands do not pay for the pipeline engine at start-up.
      const [{ dryRun }, { loadObjects, loadOperators }] = await Promise.all([
        import('../operator/dry-run.js'),
        import('../operator/load.js'),
      ]);
      const results = await dryRun(loadOperators(opts.operator), loadObjects(opts.input));
      if (opts.output === 'json') process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      else {
        for (const r of results) {
          const where = `${r.target.kind} ${r.target.apiVersion} (${r.target.type})`;
          process.stdout.write(
            `# ${r.operator}/${r.controller} -> ${where}: ${r.error ? `error: ${r.error}` : `${r.outputs!.length} object(s)`}\n`,
          );
          for (const o of r.outputs ?? []) process.stdout.write(`---\n${stringify(o, { lineWidth: 0 })}`);
        }
      }
      if (results.some((r) => r.error)) process.exitCode = 1;
    });
  cmd
    .command('graph')
    .description('print a Mermaid diagram of an Operator: controllers, sources, views and targets')
    .requiredOption('--operator <file>', 'YAML with one or more Operators')
    .action(async (opts: { operator: string }) => {
      const [{ operatorGraph }, { loadOperators }] = await Promise.all([
        import('../operator/graph.js'),
        import('../operator/load.js'),
      ]);
      process.stdout.write(operatorGraph(loadOperators(opts.operator)));
    });
}
