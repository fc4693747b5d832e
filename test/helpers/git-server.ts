import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { serveGit } from '../../src/source/git-http-backend.js';

/**
 * A real Git smart-HTTP server on 127.0.0.1 (node:http around `git http-backend`), with optional
 * Basic auth, plus a work tree per repository that tests commit into with the git CLI and push.
 */
export interface GitServer {
  url: string;
  root: string;
  /** Creates `<name>.git` and a clone of it to commit in; returns helpers for that repository. */
  repo(name: string, branch?: string): TestRepo;
  requests: string[];
  stop(): Promise<void>;
}

export interface TestRepo {
  url: string;
  work: string;
  /** Writes (string) or removes (null) files, commits them and pushes; returns the commit sha. */
  commit(files: Record<string, string | null>, message?: string): Promise<string>;
  git(...args: string[]): string;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** For anything that talks to the server in this process (push): a synchronous child would block it. */
export async function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  return (await promisify(execFile)('git', ['-C', cwd, ...args], { env: GIT_ENV, encoding: 'utf8' })).stdout.trim();
}

export async function startGitServer(opts: { auth?: { username: string; password: string } } = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'flowops-git-'));
  const projectRoot = join(root, 'srv');
  mkdirSync(projectRoot);
  const requests: string[] = [];
  const expected = opts.auth
    ? `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`
    : undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (expected && req.headers.authorization !== expected) {
      res
        .writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' })
        .end('unauthorized\n');
      return;
    }
    serveGit({ projectRoot, prefix: '', allowPush: true }, req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const authed = opts.auth ? base.replace('http://', `http://${opts.auth.username}:${opts.auth.password}@`) : base;
  return {
    url: base,
    root,
    requests,
    repo(name, branch = 'main') {
      const bare = join(projectRoot, `${name}.git`);
      execFileSync('git', ['init', '--bare', '-q', '-b', branch, bare], { env: GIT_ENV });
      const work = join(root, 'work', name);
      mkdirSync(work, { recursive: true });
      git(work, 'init', '-q', '-b', branch);
      git(work, 'remote', 'add', 'origin', `${authed}/${name}.git`);
      return {
        url: `${base}/${name}.git`,
        work,
        git: (...args) => git(work, ...args),
        async commit(files, message = 'change') {
          for (const [path, content] of Object.entries(files)) {
            const full = join(work, path);
            if (content === null) rmSync(full, { force: true });
            else {
              mkdirSync(dirname(full), { recursive: true });
              writeFileSync(full, content);
            }
          }
          git(work, 'add', '-A');
          git(work, 'commit', '-q', '--allow-empty', '-m', message);
          await gitAsync(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
          return git(work, 'rev-parse', 'HEAD');
        },
      };
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
