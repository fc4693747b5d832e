import { execFileSync } from 'node:child_process';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ApiServer } from '../apiserver/index.js';
import type { FlowSourceController } from '../controller/index.js';
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { serveGit, webhookReceiver } from '../source/index.js';

export interface EmbeddedGitOptions {
  server: ApiServer;
  kube: KubeClient;
  log: Logger;
  /** Only its trigger: in `up` the controller runs on another thread (src/cli/up/). */
  sources: Pick<FlowSourceController, 'trigger'>;
  /** `<data>/git` holds `<name>.git`. */
  dataDir: string;
  /** Folder copied into the repository on first start (repos-example/). */
  seedFrom: string;
  repoName?: string;
  namespace?: string;
  /**
   * With the API server's auth on: the admin token, which fetches and pushes must present (HTTP
   * Basic password, any username). A push is applied by the FlowSource, so it is as strong a right
   * as the admin's.
   */
  token?: string;
  /** `--verify-keys`: the FlowSource gets spec.verify with these trusted keys (Secret data, base64). */
  verify?: { secretData: Record<string, string>; mode: 'head' | 'all' } | undefined;
  /** A pull_request webhook: the source's previews run now (src/preview/). */
  previewTrigger?: (namespace: string, name: string) => void;
}

export interface EmbeddedGit {
  cloneUrl: string;
  /** cloneUrl with the credentials in it, for `git clone` (the same as cloneUrl without a token). */
  cloneUrlWithCredentials: string;
  source: string;
}

const GIT_USER = 'flowops';

function gitAuthorized(req: IncomingMessage, token: string): boolean {
  const m = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
  const password = Buffer.from(decoded.slice(decoded.indexOf(':') + 1));
  const want = Buffer.from(token);
  return decoded.includes(':') && password.length === want.length && timingSafeEqual(password, want);
}

const SEED_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'FlowOps',
  GIT_AUTHOR_EMAIL: 'flowops@localhost',
  GIT_COMMITTER_NAME: 'FlowOps',
  GIT_COMMITTER_EMAIL: 'flowops@localhost',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * Creates `<name>.git` from the seed folder once; later starts keep whatever was pushed since. The
 * seed folder is the work tree of one commit made straight into the bare repository (an index
 * file of its own, no copy and no push): three git runs on `flowops up`'s first start.
 */
function seedRepository(bare: string, seedFrom: string): void {
  if (existsSync(bare)) return;
  mkdirSync(bare, { recursive: true });
  const index = join(mkdtempSync(join(tmpdir(), 'flowops-seed-')), 'index');
  const env = { ...SEED_ENV, GIT_INDEX_FILE: index };
  const git = (...args: string[]): void =>
    void execFileSync('git', ['--git-dir', bare, '--work-tree', seedFrom, ...args], { env, stdio: 'ignore' });
  try {
    execFileSync('git', ['init', '--bare', '-q', '-b', 'main', bare], { env, stdio: 'ignore' });
    git('add', '-A');
    git('commit', '-q', '-m', 'Seed from repos-example');
  } finally {
    rmSync(dirname(index), { recursive: true, force: true });
  }
}

/**
 * The embedded default of `flowops up`: a Git smart-HTTP endpoint at `/git/<name>.git` on the API
 * server's own listener (git http-backend over a bare repository in the data dir, seeded from
 * repos-example/), a FlowSource following it, and `/hooks/<ns>/<name>` for webhooks. A push
 * triggers the sync directly, so a change is live without waiting for the poll.
 */
export async function startEmbeddedGit(opts: EmbeddedGitOptions): Promise<EmbeddedGit> {
  const name = opts.repoName ?? 'flows';
  const namespace = opts.namespace ?? 'default';
  const projectRoot = opts.dataDir;
  seedRepository(join(projectRoot, `${name}.git`), opts.seedFrom);
  const cloneUrl = `${opts.server.httpUrl}/git/${name}.git`;
  const token = opts.token;
  opts.server.addRoute((req, res, url) => {
    if (!url.pathname.startsWith('/git/')) return false;
    if (token && !gitAuthorized(req, token)) {
      res
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="flowops"' })
        .end('the Git endpoint needs the admin token as the password\n');
      return true;
    }
    serveGit(
      {
        projectRoot,
        prefix: '/git',
        allowPush: true,
        onPush: (repo) => void triggerFollowers(opts, `/git/${repo}.git`),
      },
      req,
      res,
      url,
    );
    return true;
  });
  opts.server.addRoute(
    webhookReceiver({
      kube: opts.kube,
      log: opts.log.child({ part: 'webhook' }),
      trigger: (ns, n) => opts.sources.trigger(ns, n),
      ...(opts.previewTrigger ? { previewTrigger: opts.previewTrigger } : {}),
    }),
  );
  const secretName = `${name}-git-credentials`;
  if (token) {
    await opts.kube.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secretName, namespace },
        stringData: { username: GIT_USER, password: token },
      },
      { fieldManager: 'flowops-up', force: true },
    );
  }
  const keysName = `${name}-verify-keys`;
  if (opts.verify) {
    // Server-side apply by one manager: keys left out of this start's --verify-keys are removed, no longer trusted.
    const keys = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: keysName, namespace },
      data: opts.verify.secretData,
    };
    await opts.kube.apply(keys, { fieldManager: 'flowops-up', force: true });
  }
  const verify = opts.verify ? { verify: { mode: opts.verify.mode, secretRef: { name: keysName } } } : {};
  // The port may differ from the last start: the FlowSource always points at this listener.
  await opts.kube.apply(
    {
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      metadata: { name, namespace },
      spec: {
        url: cloneUrl,
        ref: { branch: 'main' },
        path: '.',
        interval: '1m',
        ...(token ? { secretRef: { name: secretName } } : {}),
        ...verify,
      },
    },
    { fieldManager: 'flowops-up', force: true },
  );
  const withCredentials = new URL(cloneUrl);
  if (token) {
    withCredentials.username = GIT_USER;
    withCredentials.password = token;
  }
  return { cloneUrl, cloneUrlWithCredentials: withCredentials.toString(), source: `${namespace}/${name}` };
}

async function triggerFollowers(opts: EmbeddedGitOptions, path: string): Promise<void> {
  try {
    const { items } = await opts.kube.list('flowops.io/v1', 'FlowSource');
    for (const s of items) {
      const url = (s.spec as { url?: string } | undefined)?.url;
      if (url && new URL(url).pathname === path)
        opts.sources.trigger(s.metadata.namespace ?? 'default', s.metadata.name!);
    }
  } catch (err) {
    opts.log.warn({ err }, 'could not trigger the sources of a pushed repository');
  }
}
