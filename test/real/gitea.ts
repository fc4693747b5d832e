// The real Gitea (scripts/control-plane/build-gitea.sh) as a local forge for a test: a SQLite
// install on 127.0.0.1 with one admin user and an access token, started with the Gitea CLI as an
// administrator would (`gitea migrate`, `gitea admin user create`, `… generate-access-token`).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait.js';

const run = promisify(execFile);
const VERSION = 'v1.26.0';

/** The build's folder (bin/gitea, share/), FLOWOPS_GITEA or the cache the build script fills. */
export const GITEA_DIR =
  process.env.FLOWOPS_GITEA ??
  join(process.env.FLOWOPS_CACHE ?? join(homedir(), '.cache', 'flowops'), `gitea-${VERSION}`);

export const giteaSkipReason = existsSync(join(GITEA_DIR, 'bin', 'gitea'))
  ? ''
  : `no Gitea at ${GITEA_DIR}/bin/gitea (scripts/control-plane/build-gitea.sh builds it)`;

export interface Gitea {
  /** http://127.0.0.1:PORT */
  url: string;
  user: string;
  token: string;
  /** A JSON call to /api/v1 as the admin user; throws with the answer on a non-2xx. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

export async function startGitea(): Promise<Gitea> {
  const bin = join(GITEA_DIR, 'bin', 'gitea');
  const work = mkdtempSync(join(tmpdir(), 'gitea-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = join(work, 'app.ini');
  writeFileSync(
    config,
    // CI runs as root, which Gitea refuses unless told (a throwaway install on 127.0.0.1).
    `I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = ${process.getuid?.() === 0}
APP_NAME = FlowOps test forge
RUN_MODE = prod
WORK_PATH = ${work}
[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = ${port}
ROOT_URL = ${url}/
STATIC_ROOT_PATH = ${join(GITEA_DIR, 'share')}
APP_DATA_PATH = ${join(work, 'data')}
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false
[database]
DB_TYPE = sqlite3
PATH = ${join(work, 'gitea.db')}
[repository]
ROOT = ${join(work, 'repositories')}
DEFAULT_BRANCH = main
[security]
INSTALL_LOCK = true
SECRET_KEY = ${randomBytes(24).toString('hex')}
INTERNAL_TOKEN = ${randomBytes(48).toString('base64url')}
[oauth2]
ENABLED = false
[service]
DISABLE_REGISTRATION = true
[actions]
ENABLED = false
[indexer]
ISSUE_INDEXER_TYPE = db
[cron]
ENABLED = false
[log]
MODE = console
LEVEL = Warn
`,
  );
  const env = { ...process.env, GITEA_WORK_DIR: work, GITEA_CUSTOM: join(work, 'custom'), HOME: work };
  const cli = (...args: string[]) => run(bin, ['--config', config, ...args], { env, cwd: work });
  await cli('migrate');
  const user = 'flowops';
  await cli(
    'admin',
    'user',
    'create',
    '--username',
    user,
    '--password',
    `Pw-${randomBytes(12).toString('hex')}`,
    '--email',
    'flowops@example.test',
    '--admin',
    '--must-change-password=false',
  );
  const { stdout } = await cli(
    'admin',
    'user',
    'generate-access-token',
    '--username',
    user,
    '--token-name',
    'flowops-test',
    '--scopes',
    'all',
    '--raw',
  );
  // Gitea logs to stdout too: the token is the line of 40 hex digits.
  const token = stdout
    .split('\n')
    .find((l) => /^[0-9a-f]{40}$/.test(l.trim()))
    ?.trim();
  if (!token) throw new Error(`gitea generate-access-token printed no token: ${stdout.slice(-500)}`);
  const proc: ChildProcess = spawn(bin, ['--config', config, 'web'], { env, cwd: work, stdio: 'ignore' });
  await waitFor(async () => (await fetch(`${url}/api/healthz`).catch(() => undefined))?.ok, {
    what: 'Gitea to answer /api/healthz',
    timeoutMs: 60_000,
  });
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`gitea ${method} ${path}: HTTP ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    url,
    user,
    token,
    api,
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
