// Where a script step runs: the most isolation this machine allows, found once per process.
//
// A Flow author's script runs on FlowOps' machine, beside FlowOps' own credentials (its
// kubeconfig or ServiceAccount token, its data folder with Git clones and, for `up`, the admin
// kubeconfig). The script gets its own credentials (identity-proxy.ts) and env (script-env.ts);
// this keeps it away from FlowOps' files and processes, and bounds what it can use:
//
//   namespaces  `unshare` gives the script a mount namespace in which FlowOps' credential paths
//               are covered (an empty tmpfs over a folder, /dev/null over a file), and a PID
//               namespace with its own /proc: FlowOps' /proc/<pid>/environ (REDIS_URL, tokens) is
//               not there, and when the script exits the kernel kills everything it left
//               running, even a child that escaped the process group with setsid.
//   uid         where FlowOps runs as root, the script runs as nobody (65534), with no
//               supplementary groups and no_new_privs: files only root may read stay unread.
//   rlimits     address space (--script-memory-limit), no core dumps, and a process count when
//               the uid is the script's own; wall time is errorHandling.timeout (script.ts).
//
// Root gets all three; a non-root user with user namespaces gets the namespaces (inside a user
// namespace it is root, so it may mount, but it cannot become another uid); otherwise only the
// rlimits and the process group, and one warning says so. util-linux's unshare, setpriv and
// prlimit do the work: no helper binary of ours, nothing compiled.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve, sep } from 'node:path';
import { REPO_TOOLS } from '../package-root.js';

export type SandboxLevel = 'namespaces+uid' | 'namespaces' | 'rlimits' | 'none';

export interface SandboxOptions {
  /** RLIMIT_AS of the script and everything it starts. */
  memoryLimitBytes: number;
  /** false (--script-isolation none): no namespaces and no uid change, whatever the machine allows. */
  isolate: boolean;
}

/** The uid and gid of nobody: owns nothing FlowOps has. */
const NOBODY = 65534;
/** Processes (and threads) of the script's own uid at once: a fork bomb ends here. */
const PROCESS_LIMIT = 1024;
export const DEFAULT_SCRIPT_MEMORY_LIMIT = 1024 * 1024 * 1024;

// Run inside the new namespaces, as root there: covers each path given before `--`, then drops to
// the script's identity and limits and execs the interpreter. Fixed text; paths arrive as arguments.
const STAGE = `set -e
while [ "$1" != "--" ]; do
  if [ -d "$1" ]; then mount -t tmpfs -o size=4k,mode=0 flowops-hidden "$1"; elif [ -e "$1" ]; then mount --bind /dev/null "$1"; fi
  shift
done
shift
exec "$@"`;

class ScriptSandbox {
  private readonly hidden = new Set<string>();
  private level: Promise<SandboxLevel> | undefined;
  private options: SandboxOptions = { memoryLimitBytes: DEFAULT_SCRIPT_MEMORY_LIMIT, isolate: true };
  private warned = false;

  constructor() {
    for (const file of (process.env.KUBECONFIG ?? '').split(delimiter)) if (file) this.hide(file);
    this.hide(join(homedir(), '.kube'));
    this.hide('/var/run/secrets/kubernetes.io');
    this.hide('/run/secrets/kubernetes.io');
  }

  /** A path no script may read: FlowOps' data folder, its kubeconfig, a credentials file. */
  hide(path: string): void {
    this.hidden.add(resolve(path));
  }

  configure(options: Partial<SandboxOptions>): void {
    if (options.isolate !== undefined && options.isolate !== this.options.isolate) this.level = undefined;
    this.options = { ...this.options, ...options };
  }

  /**
   * What this machine allows, probed once, the first time a script runs. The probes are child
   * processes waited for without blocking the event loop: other reconciles go on meanwhile.
   */
  detect(): Promise<SandboxLevel> {
    return (this.level ??= this.probe());
  }

  private async probe(): Promise<SandboxLevel> {
    const isRoot = process.getuid?.() === 0;
    const namespaces = namespaceArgs();
    // A tmpfs over the temp folder, as a script run covers a path: visible only inside the namespace.
    if (
      this.options.isolate &&
      (await works('unshare', [...namespaces, '--', 'sh', '-c', 'mount -t tmpfs flowops-probe "$1"', 'sh', tmpdir()]))
    ) {
      // As nobody the script must still reach the kubectl/helm `npm ci` unpacks beside FlowOps: a
      // checkout in a folder only root may enter would break them, so there the script stays root,
      // in its namespaces, and the warning says why.
      return isRoot &&
        (await works('setpriv', [...dropToNobody(), '--', 'sh', '-c', REACHABLE, 'sh', ...this.toolDirs()]))
        ? 'namespaces+uid'
        : 'namespaces';
    }
    return (await works('prlimit', ['--core=0', '--', 'true'])) ? 'rlimits' : 'none';
  }

  /**
   * FlowOps' own tool folder, the one a script is surely given (kubectl, helm). Other PATH folders
   * only root may enter (root's ~/bin) are root's own, and stay out of a nobody script's reach.
   */
  private toolDirs(): string[] {
    return existsSync(REPO_TOOLS) ? [REPO_TOOLS] : [];
  }

  /** The command line that runs `command args` in the sandbox, the level it has, and the warning to log once, if any. */
  async wrap(
    command: string,
    args: string[],
    scriptDir: string,
  ): Promise<{ command: string; args: string[]; level: SandboxLevel; warning?: string }> {
    const level = await this.detect();
    const limits =
      level === 'none'
        ? []
        : [
            'prlimit',
            `--as=${this.options.memoryLimitBytes}`,
            '--core=0',
            ...(level === 'namespaces+uid' ? [`--nproc=${PROCESS_LIMIT}`] : []),
            '--',
          ];
    const identity = level === 'namespaces+uid' ? ['setpriv', ...dropToNobody(), '--'] : [];
    const inner = [...identity, ...limits, command, ...args];
    const warning = this.warnOnce(level);
    if (level !== 'namespaces+uid' && level !== 'namespaces') {
      const [first, ...rest] = inner;
      return { command: first!, args: rest, level, ...(warning ? { warning } : {}) };
    }
    return {
      command: 'unshare',
      args: [
        ...namespaceArgs(),
        '--',
        'sh',
        '-c',
        STAGE,
        'flowops-sandbox',
        ...this.pathsToHide(scriptDir),
        '--',
        ...inner,
      ],
      level,
      ...(warning ? { warning } : {}),
    };
  }

  /** The script's folder (and its files) become the script's uid's, where it runs as another. */
  async handOver(dir: string, files: string[]): Promise<void> {
    if ((await this.detect()) !== 'namespaces+uid') return;
    for (const f of [dir, ...files]) await chown(f, NOBODY, NOBODY);
  }

  /** Never a path that holds the script's own folder (a data folder under the temp dir, in tests). */
  private pathsToHide(scriptDir: string): string[] {
    const inside = (child: string, parent: string) =>
      child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
    return [...this.hidden].filter((p) => existsSync(p) && !inside(scriptDir, p) && !inside(tmpdir(), p));
  }

  private warnOnce(level: SandboxLevel): string | undefined {
    if (this.warned || level === 'namespaces+uid') return undefined;
    this.warned = true;
    if (level === 'namespaces') {
      const why = process.getuid?.() === 0 ? `nobody (65534) cannot reach ${REPO_TOOLS}` : 'FlowOps is not root';
      return `scripts run in their own mount and PID namespaces but as FlowOps' own uid (${why}): files FlowOps can read outside the covered paths, the script can read too`;
    }
    const why = this.options.isolate
      ? 'no usable unshare here: run FlowOps as root or allow user namespaces'
      : '--script-isolation none';
    return `scripts are not isolated from FlowOps' files and processes (${why}); only their ${level === 'rlimits' ? 'rlimits, ' : ''}process group and timeout bound them`;
  }
}

// A new mount namespace (private: nothing mounted in it reaches the host), and a PID namespace
// whose init is the script, with a /proc of its own.
const NAMESPACES = ['--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--mount-proc'];
const USER_NAMESPACE = ['--user', '--map-root-user'];
/** Root makes the namespaces itself; anyone else first becomes root of a user namespace (the probe's and every run's). */
const namespaceArgs = (): string[] => (process.getuid?.() === 0 ? NAMESPACES : [...USER_NAMESPACE, ...NAMESPACES]);
/** Every folder given can be entered and listed (run as the script's uid). */
const REACHABLE = 'for d; do [ -x "$d" ] && [ -r "$d" ] || exit 1; done';
const dropToNobody = () => [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--no-new-privs'];

/** Exits 0 within 10 s (the probes: an unshare, a setpriv, a prlimit). */
function works(cmd: string, args: string[]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { stdio: 'ignore', timeout: 10_000 });
    child.on('error', () => done(false));
    child.on('exit', (code) => done(code === 0));
  });
}

/** One per process: the hidden paths are FlowOps' own, whichever Flow runs. */
export const scriptSandbox = new ScriptSandbox();
