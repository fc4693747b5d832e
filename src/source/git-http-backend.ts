import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Serves bare repositories under `projectRoot` over Git smart HTTP by running `git http-backend`
 * as a CGI, the way Apache or nginx would. isomorphic-git speaks only smart HTTP(S), so this is
 * both the embedded Git endpoint of `flowops up` and the server the tests clone from.
 */
export interface GitHttpBackendOptions {
  /** Folder holding `<name>.git` bare repositories. */
  projectRoot: string;
  /** URL prefix stripped before the repository path, e.g. "/git". */
  prefix: string;
  /** Accept pushes (git-receive-pack); off unless asked. */
  allowPush?: boolean;
  /** Called after a push to `<name>.git` succeeded, with the repository name (without `.git`). */
  onPush?: (repo: string) => void;
  /** The git binary (default "git" on PATH). */
  git?: string;
}

/** Handles one request whose path starts with `prefix`; answers 404 for anything else. */
export function serveGit(opts: GitHttpBackendOptions, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const pathInfo = url.pathname.slice(opts.prefix.length);
  // Only `<name>.git/...` or `<owner>/<name>.git/...` (a forge's path, a fork's too) below the
  // root: no "..", no hidden folder, no absolute escapes.
  const m = /^\/((?:[A-Za-z0-9._-]+\/)?[A-Za-z0-9._-]+)\.git(\/.*)?$/.exec(pathInfo);
  if (!m || m[1]!.split('/').some((part) => part.startsWith('.')) || pathInfo.includes('..')) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  const isPush = pathInfo.endsWith('/git-receive-pack') || url.searchParams.get('service') === 'git-receive-pack';
  if (isPush && !opts.allowPush) {
    res.writeHead(403, { 'content-type': 'text/plain' }).end('push is disabled\n');
    return;
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_PROJECT_ROOT: opts.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: pathInfo,
    REQUEST_METHOD: req.method ?? 'GET',
    QUERY_STRING: url.search.replace(/^\?/, ''),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: req.socket.remoteAddress ?? '',
    // http-backend refuses receive-pack for anonymous users unless http.receivepack is set.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.receivepack',
    GIT_CONFIG_VALUE_0: opts.allowPush ? 'true' : 'false',
  };
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = String(req.headers['content-encoding']);
  if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
  const cgi = spawn(opts.git ?? 'git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(cgi.stdin);
  cgi.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let headersDone = false;
  let failed = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headersDone = true;
    const { status, headers } = parseCgiHeaders(head.subarray(0, end).toString('latin1'));
    failed = status >= 400;
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  cgi.stderr.resume();
  cgi.on('error', () => {
    if (!res.headersSent)
      res.writeHead(500, { 'content-type': 'text/plain' }).end('git http-backend could not start\n');
  });
  cgi.on('close', (code) => {
    if (!headersDone && !res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end();
    if (code === 0 && !failed && req.method === 'POST' && pathInfo.endsWith('/git-receive-pack')) opts.onPush?.(m[1]!);
  });
}

function parseCgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const name = line.slice(0, i).trim();
    const value = line.slice(i + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  return { status, headers };
}
