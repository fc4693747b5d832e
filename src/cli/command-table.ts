// Every top-level command of the flowops CLI: its name, what help lists it as, one line of what it
// does, and the module that registers it. main.ts loads only the module of the command being run,
// so `flowops --help` and quick commands do not pay for the others; the top-level help is drawn
// from this table alone. test/cli/command-table.test.ts checks that the modules register exactly
// what the table says.
import type { Command } from 'commander';

type Register = (program: Command) => void;

export interface CommandEntry {
  name: string;
  /** How help lists the command after its name: `[options]` and the arguments. */
  term: string;
  summary: string;
  load: () => Promise<Register>;
}

const verbs = async (): Promise<Register> => (await import('./verbs-command.js')).registerVerbCommands;
const tree = async (): Promise<Register> => (await import('./tree-command.js')).registerTreeCommand;

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'apiserver',
    term: '[options]',
    summary: 'run the embedded Kubernetes-compatible API server in the foreground',
    load: async () => (await import('./apiserver-command.js')).registerApiserverCommand,
  },
  {
    name: 'up',
    term: '[options]',
    summary: 'run FlowOps in one process on the embedded API server (what `npm start` runs)',
    load: async () => (await import('./up-command.js')).registerUpCommand,
  },
  {
    name: 'validate',
    term: '<paths...>',
    summary: 'check Flow files (or directories of them) without a cluster; exit code 1 on any error',
    load: async () => (await import('./validate-command.js')).registerValidateCommand,
  },
  {
    name: 'render',
    term: '[options] <paths...>',
    summary:
      'run Flows against sample objects on a throwaway in-memory API server and print what each object gets (children, status) as YAML; exit 1 when --expect golden files differ, 2 on invalid input',
    load: async () => (await import('./render-command.js')).registerRenderCommand,
  },
  {
    name: 'diff',
    term: '[options] [dir]',
    summary:
      'show what syncing local definitions would change in the cluster (server-side dry run against the live objects, and what a prune would delete); exit 0 no change, 1 changes, 2 invalid',
    load: async () => (await import('./diff-command.js')).registerDiffCommand,
  },
  {
    name: 'preview',
    term: '[options]',
    summary:
      "preview a FlowSource's open pull requests now: validate each head, diff it against live, write its comment " +
      'and commit status on the forge (spec.previews); nothing applied; exit 1 when one is rejected',
    load: async () => (await import('./preview-command.js')).registerPreviewCommand,
  },
  {
    name: 'history',
    term: '[options] <source>',
    summary: 'list the commits a FlowSource applied (or rejected), newest first',
    load: async () => (await import('./history-command.js')).registerHistoryCommand,
  },
  {
    name: 'rollback',
    term: '[options] <source>',
    summary: 'pin a FlowSource to a commit (--to) or follow its branch again (--unpin)',
    load: async () => (await import('./rollback-command.js')).registerRollbackCommand,
  },
  {
    name: 'push',
    term: '',
    summary:
      'push artifact DIR oci://registry/repo:tag: pack a folder of definitions as an OCI artifact ' +
      'a FlowSource follows (spec.oci)',
    load: async () => (await import('./push-command.js')).registerPushCommand,
  },
  {
    name: 'rollout',
    term: '',
    summary:
      "follow and steer a Flow's progressive rollout (spec.rollout): status waits as kubectl rollout status does",
    load: async () => (await import('./rollout-command.js')).registerRolloutCommand,
  },
  {
    name: 'tree',
    term: '[options] <object>',
    summary:
      'show the causal chain of an object or a Flow: source, commit, Flow, object, last runs, children and their health',
    load: tree,
  },
  { name: 'why', term: '[options] <object>', summary: 'the same as tree: why an object is (not) ready', load: tree },
  {
    name: 'get',
    term: '[options] <what>',
    summary: 'list flows, sources or runs (every watched object with its last run), as kubectl get does',
    load: verbs,
  },
  {
    name: 'reconcile',
    term: '[options] <kind> <name>',
    summary: 'run a Flow (every watched object) or sync a FlowSource now',
    load: verbs,
  },
  {
    name: 'suspend',
    term: '[options] <kind> <name>',
    summary: 'stop reconciling a Flow or a FlowSource (spec.suspend: true)',
    load: verbs,
  },
  {
    name: 'resume',
    term: '[options] <kind> <name>',
    summary: 'reconcile a suspended Flow or FlowSource again',
    load: verbs,
  },
  { name: 'events', term: '[options] <object>', summary: 'the Events of an object, oldest first', load: verbs },
  {
    name: 'completion',
    term: '<shell>',
    summary: 'print a shell completion script: source <(flowops completion bash)',
    load: verbs,
  },
  {
    name: 'pipeline',
    term: '',
    summary: 'dry-run and visualise Δ-controller Operators',
    load: async () => (await import('./pipeline-command.js')).registerPipelineCommand,
  },
  {
    name: 'auth',
    term: '',
    summary: 'keys and kubeconfigs for the view API server',
    load: async () => (await import('./auth-command.js')).registerAuthCommand,
  },
  {
    name: 'view-server',
    term: '[options]',
    summary: 'serve Operator views (HTTPS + JWT, or --dev) and run the Operators of a cluster',
    load: async () => (await import('./view-server-command.js')).registerViewServerCommand,
  },
  {
    name: 'run',
    term: '[options]',
    summary: 'run the leader-elected controllers (watches and enqueueing) against a cluster and Redis',
    load: async () => (await import('./run-command.js')).registerRunCommand,
  },
  {
    name: 'worker',
    term: '[options]',
    summary: 'run reconcile workers that take jobs from the BullMQ queue',
    load: async () => (await import('./worker-command.js')).registerWorkerCommand,
  },
];

/** The one-line description of a command, for the module that registers it. */
export function summaryOf(name: string): string {
  const entry = COMMANDS.find((c) => c.name === name);
  // Invariant: every command module asks for its own name, which this table lists.
  if (!entry) throw new Error(`command-table: no command "${name}"`);
  return entry.summary;
}
