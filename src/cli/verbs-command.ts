import type { Command } from 'commander';
import { durationFlag } from './cluster-flags.js';
import { summaryOf } from './command-table.js';
import { withKube } from './with-kube.js';

// The everyday verbs (kubectl's and flux's): get, reconcile, suspend, resume, events, completion.
// Each loads its implementation when it runs.

const kubeconfigOption = (c: Command): Command =>
  c.option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)');

export function registerVerbCommands(program: Command): void {
  kubeconfigOption(
    program
      .command('get')
      .description(summaryOf('get'))
      .argument('<what>', 'flows, sources or runs')
      .option('-n, --namespace <ns>', "namespace (default: the context's, else default)")
      .option('-A, --all-namespaces', 'every namespace')
      .option('-o, --output <format>', 'yaml or json'),
  ).action(
    async (
      what: string,
      flags: { namespace?: string; allNamespaces?: boolean; output?: string; kubeconfig?: string },
    ) => {
      const { runGet } = await import('./verbs/get-run.js');
      process.stdout.write(await withKube(flags, (kube) => runGet(kube, what, flags)));
    },
  );

  kubeconfigOption(
    program
      .command('reconcile')
      .description(summaryOf('reconcile'))
      .argument('<kind>', 'flow or source')
      .argument('<name>', '[namespace/]name')
      .option('-n, --namespace <ns>', 'namespace')
      .option('--wait', 'sources: wait until the sync answered, and show how it went')
      .option('--timeout <d>', 'with --wait: how long to wait', durationFlag, 120_000),
  ).action(
    async (
      kind: string,
      name: string,
      flags: { namespace?: string; wait?: boolean; timeout?: number; kubeconfig?: string },
    ) => {
      const { runReconcile } = await import('./verbs/act-run.js');
      const tty = process.stderr.isTTY;
      const progress = (line: string): void => void (tty && process.stderr.write(`\r\u001b[2K${line}`));
      const { text, code } = await withKube(flags, (kube) => runReconcile(kube, kind, name, flags, progress));
      if (tty && flags.wait) process.stderr.write('\r\u001b[2K');
      process.stdout.write(text);
      process.exitCode = code;
    },
  );

  for (const [verb, suspend] of [
    ['suspend', true],
    ['resume', false],
  ] as const) {
    kubeconfigOption(
      program
        .command(verb)
        .description(summaryOf(verb))
        .argument('<kind>', 'flow or source')
        .argument('<name>', '[namespace/]name')
        .option('-n, --namespace <ns>', 'namespace'),
    ).action(async (kind: string, name: string, flags: { namespace?: string; kubeconfig?: string }) => {
      const { runSuspend } = await import('./verbs/act-run.js');
      process.stdout.write(await withKube(flags, (kube) => runSuspend(kube, kind, name, suspend, flags.namespace)));
    });
  }

  kubeconfigOption(
    program
      .command('events')
      .description(summaryOf('events'))
      .argument('<object>', 'KIND/NAME, e.g. database/my-postgres')
      .option('-n, --namespace <ns>', 'namespace', 'default'),
  ).action(async (arg: string, flags: { namespace?: string; kubeconfig?: string }) => {
    const { runEvents } = await import('./verbs/events-run.js');
    process.stdout.write(await withKube(flags, (kube) => runEvents(kube, arg, flags.namespace)));
  });

  program
    .command('completion')
    .description(summaryOf('completion'))
    .argument('<shell>', 'bash, zsh or fish')
    .action(async (shell: string) => {
      const { completionScript } = await import('./verbs/completion.js');
      process.stdout.write(completionScript(program, shell));
    });
}
