// The flowops CLI. Each command's module loads what its action needs only when it runs, so
// `flowops --help` and quick commands start in about the time node itself takes.
import { Command } from 'commander';
import { registerApiserverCommand } from './apiserver-command.js';
import { registerAuthCommand } from './auth-command.js';
import { registerHistoryCommand } from './history-command.js';
import { registerDiffCommand } from './diff-command.js';
import { registerRenderCommand } from './render-command.js';
import { registerPipelineCommand } from './pipeline-command.js';
import { registerRollbackCommand } from './rollback-command.js';
import { registerRunCommand } from './run-command.js';
import { registerTreeCommand } from './tree-command.js';
import { registerUpCommand } from './up-command.js';
import { registerVerbCommands } from './verbs-command.js';
import { registerValidateCommand } from './validate-command.js';
import { registerViewServerCommand } from './view-server-command.js';
import { registerWorkerCommand } from './worker-command.js';
import { asSetupError, SetupError } from './setup-error.js';

const program = new Command('flowops')
  .description('Turns YAML kept in Git into running Kubernetes operators')
  .version('0.1.0')
  .showHelpAfterError();

registerApiserverCommand(program);
registerUpCommand(program);
registerValidateCommand(program);
registerRenderCommand(program);
registerDiffCommand(program);
registerHistoryCommand(program);
registerRollbackCommand(program);
registerTreeCommand(program);
registerVerbCommands(program);
registerPipelineCommand(program);
registerAuthCommand(program);
registerViewServerCommand(program);
registerRunCommand(program);
registerWorkerCommand(program);

program.parseAsync(process.argv).catch(async (err: unknown) => {
  // A connection failure that reached here is the cluster not answering: say so in one line.
  const server = (await import('./kube-setup.js')).clusterInUse();
  const setup = err instanceof SetupError ? err : asSetupError(err, `the Kubernetes API server${server ? ` at ${server}` : ''}`, 'is the cluster up? check the server in your kubeconfig, or run "flowops up"');
  process.stderr.write(`flowops: ${(setup ?? err) instanceof Error ? (setup ?? (err as Error)).message : String(err)}\n`);
  process.exit(setup ? setup.exitCode : 1);
});
