// The flowops CLI. Only the module of the command being run is loaded (see command-table.ts), and
// each command's module loads what its action needs only when it runs, so `flowops --help` and
// quick commands start in about the time node itself takes.
import { Command, Help } from 'commander';
import { COMMANDS, type CommandEntry } from './command-table.js';
import { ApiServerSetupError } from '../apiserver/errors.js';
import { KubeConfigError } from '../kube/errors.js';
import { asSetupError, SetupError } from '../util/setup-error.js';

// A reader that goes away (`flowops get runs | head`) closes the pipe under us: stop quietly, as cat
// does, instead of dying on an unhandled EPIPE with a stack trace. Other write errors stay loud.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const program = new Command('flowops')
  .description('Turns YAML kept in Git into running Kubernetes operators')
  .version('0.1.0')
  .showHelpAfterError();

/** The command a command line runs: its first word that is not an option (`help X` runs X's help). */
function commandOf(args: string[]): CommandEntry | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === name);
}

const chosen = commandOf(process.argv.slice(2));
if (chosen && chosen.name !== 'completion') {
  (await chosen.load())(program);
} else if (chosen) {
  // A completion script lists every command's options, so it needs them all.
  for (const register of new Set(await Promise.all(COMMANDS.map((c) => c.load())))) register(program);
} else {
  // Top-level help, --version or an unknown command: the table is enough to list the commands.
  const terms = new Map(COMMANDS.map((c) => [c.name, c.term]));
  const standard = new Help();
  for (const c of COMMANDS) program.command(c.name).description(c.summary);
  program.configureHelp({
    subcommandTerm: (cmd: Command): string => {
      const term = terms.get(cmd.name());
      return term === undefined ? standard.subcommandTerm(cmd) : [cmd.name(), term].filter(Boolean).join(' ');
    },
  });
}

program.parseAsync(process.argv).catch(async (err: unknown) => {
  // A connection failure that reached here is the cluster not answering: say so in one line.
  const server = (await import('./kube-setup.js')).clusterInUse();
  const setup =
    // A kubeconfig, Lease or API server setting FlowOps cannot start with is a usage error too (exit 2).
    err instanceof SetupError || err instanceof KubeConfigError || err instanceof ApiServerSetupError
      ? err
      : asSetupError(
          err,
          `the Kubernetes API server${server ? ` at ${server}` : ''}`,
          'is the cluster up? check the server in your kubeconfig, or run "flowops up"',
        );
  process.stderr.write(
    `flowops: ${(setup ?? err) instanceof Error ? (setup ?? (err as Error)).message : String(err)}\n`,
  );
  process.exit(setup ? setup.exitCode : 1);
});
