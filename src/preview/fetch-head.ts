// A pull request's head commit, fetched into a bare repository of its own (never the source's
// clone, which the sync owns) by the ref the forge keeps it under in the base repository, so a
// fork's request needs no access to the fork. The git CLI, since isomorphic-git cannot fetch a
// ref outside refs/heads and refs/tags by name; credentials go in the environment, never argv.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { GitCredentials } from '../source/index.js';
import { displayUrl } from '../source/errors.js';
import { PreviewError } from './errors.js';

const run = promisify(execFile);

function authEnv(creds: GitCredentials | undefined): Record<string, string> {
  if (!creds) return {};
  const value =
    'bearerToken' in creds
      ? `Bearer ${creds.bearerToken}`
      : `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: ${value}` };
}

export interface FetchHeadOptions {
  /** The bare repository previews of this source fetch into (made when missing). */
  gitDir: string;
  url: string;
  ref: string;
  sha: string;
  credentials?: GitCredentials | undefined;
}

/** Fetches the head when this repository lacks it; the commit's full hash (Bitbucket lists 12 digits). */
export async function fetchHead(opts: FetchHeadOptions): Promise<string> {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...authEnv(opts.credentials) };
  const git = (...args: string[]): Promise<{ stdout: string }> =>
    run('git', ['--git-dir', opts.gitDir, ...args], { env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  try {
    if (!existsSync(`${opts.gitDir}/HEAD`)) {
      mkdirSync(opts.gitDir, { recursive: true });
      await git('init', '--bare', '-q');
    }
    const have = await git('cat-file', '-e', `${opts.sha}^{commit}`).then(
      () => true,
      () => false,
    );
    if (!have) await git('fetch', '-q', '--no-tags', '--depth=1', opts.url, `+${opts.ref}:refs/flowops/preview`);
    return (await git('rev-parse', '--verify', '-q', `${opts.sha}^{commit}`)).stdout.trim();
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim().split('\n').pop() ?? '';
    const clean = stderr.replaceAll(opts.url, displayUrl(opts.url));
    throw new PreviewError(
      'FetchFailed',
      `fetching ${opts.ref} (${opts.sha.slice(0, 12)}) from ${displayUrl(opts.url)} failed` +
        (clean ? `: ${clean}` : ' (the head moved on since it was listed; the next pass previews the new one)'),
    );
  }
}
