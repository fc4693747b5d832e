import { existsSync, rmSync } from 'node:fs';
import git from 'isomorphic-git';
import { authHooks, type GitCredentials } from './auth.js';
import { displayUrl, SourceError } from './errors.js';
import type { GitContext } from './git-context.js';
import { DEFAULT_BRANCH, isFullSha, type SourceRef } from './revision.js';

export interface FetchOptions {
  ctx: GitContext;
  url: string;
  ref: SourceRef;
  credentials?: GitCredentials | undefined;
}

// git's own "--unshallow": deepen by the largest depth upload-pack accepts.
const UNSHALLOW = 2_147_483_647;

/**
 * Brings the local copy of a source up to date and returns the commit to sync.
 * - First time: a shallow, single-branch clone without checkout (a fraction of a full clone).
 * - Afterwards: a plain fetch, never with `depth` (that would download the snapshot again).
 * - A pinned commit is not fetched at all when it is already here: a pin never moves forward;
 *   an older commit than the shallow clone holds deepens the history once.
 */
export async function fetchSource(opts: FetchOptions): Promise<string> {
  const { ctx, ref } = opts;
  try {
    if (ref.commit && !isFullSha(ref.commit))
      throw new SourceError('CommitNotFound', `ref.commit "${ref.commit}" is not a full 40-character commit sha`);
    if (ref.commit && (await hasCommit(ctx, ref.commit))) return ref.commit;
    const fetched = await cloneOrFetch(opts);
    if (!ref.commit) return fetched;
    if (!(await hasCommit(ctx, ref.commit))) await transfer(opts, { depth: UNSHALLOW, relative: true });
    if (!(await hasCommit(ctx, ref.commit)))
      throw new SourceError(
        'CommitNotFound',
        `commit ${ref.commit} is not in ${displayUrl(opts.url)} (${branchOrTag(ref)})`,
      );
    return ref.commit;
  } catch (e) {
    throw toSourceError(e, opts);
  } finally {
    // Packs changed: cached pack indexes would miss the new objects.
    ctx.cache = {};
  }
}

function branchOrTag(ref: SourceRef): string {
  return ref.tag && !ref.branch ? `tag ${ref.tag}` : `branch ${ref.branch ?? DEFAULT_BRANCH}`;
}

async function hasCommit(ctx: GitContext, oid: string): Promise<boolean> {
  if (!existsSync(`${ctx.gitdir}/HEAD`)) return false;
  try {
    await git.readCommit({ fs: ctx.fs, gitdir: ctx.gitdir, oid, cache: ctx.cache });
    return true;
  } catch {
    return false;
  }
}

async function cloneOrFetch(opts: FetchOptions): Promise<string> {
  const { ctx, url } = opts;
  const existing = existsSync(`${ctx.gitdir}/HEAD`)
    ? await git.getConfig({ fs: ctx.fs, gitdir: ctx.gitdir, path: 'remote.origin.url' }).catch(() => undefined)
    : undefined;
  if (existing !== url) {
    // A new URL is a new repository: start over rather than mix objects of two remotes.
    rmSync(ctx.dir, { recursive: true, force: true });
    if (opts.ref.tag && !opts.ref.branch) return cloneTag(opts);
    const hooks = authHooks(opts.credentials);
    await git
      .clone({
        fs: ctx.fs,
        http: ctx.http,
        dir: ctx.dir,
        gitdir: ctx.gitdir,
        url,
        ref: opts.ref.tag && !opts.ref.branch ? opts.ref.tag : (opts.ref.branch ?? DEFAULT_BRANCH),
        singleBranch: true,
        noCheckout: true,
        depth: 1,
        noTags: true,
        headers: hooks.headers,
        onAuthFailure: hooks.onAuthFailure,
        ...(hooks.onAuth ? { onAuth: hooks.onAuth } : {}),
      })
      .catch((e: unknown) => {
        rmSync(ctx.dir, { recursive: true, force: true });
        throw hooks.rejected() ? new SourceError('AuthFailed', authFailed(opts)) : e;
      });
    return tipOf(ctx, opts.ref);
  }
  await transfer(opts, {});
  return tipOf(ctx, opts.ref);
}

/**
 * git.clone of a tag runs its checkout step (even with noCheckout) against `origin/<tag>`, which a
 * tag never has: a tag source is an empty repository with the remote set, then one shallow fetch.
 */
async function cloneTag(opts: FetchOptions): Promise<string> {
  const { ctx, url } = opts;
  await git.init({ fs: ctx.fs, dir: ctx.dir, gitdir: ctx.gitdir, defaultBranch: DEFAULT_BRANCH });
  await git.setConfig({ fs: ctx.fs, gitdir: ctx.gitdir, path: 'remote.origin.url', value: url });
  const refspec = '+refs/heads/*:refs/remotes/origin/*';
  await git.setConfig({ fs: ctx.fs, gitdir: ctx.gitdir, path: 'remote.origin.fetch', value: refspec });
  await transfer(opts, { depth: 1 }).catch((e: unknown) => {
    rmSync(ctx.dir, { recursive: true, force: true });
    throw e;
  });
  return tipOf(ctx, opts.ref);
}

async function transfer(opts: FetchOptions, extra: { depth?: number; relative?: boolean }): Promise<void> {
  const { ctx, ref } = opts;
  const hooks = authHooks(opts.credentials);
  const tag = ref.tag && !ref.branch ? ref.tag : undefined;
  await git
    .fetch({
      fs: ctx.fs,
      http: ctx.http,
      dir: ctx.dir,
      gitdir: ctx.gitdir,
      url: opts.url,
      ref: tag ?? ref.branch ?? DEFAULT_BRANCH,
      singleBranch: true,
      tags: tag !== undefined,
      prune: false,
      headers: hooks.headers,
      onAuthFailure: hooks.onAuthFailure,
      ...(hooks.onAuth ? { onAuth: hooks.onAuth } : {}),
      ...extra,
    })
    .catch((e: unknown) => {
      throw hooks.rejected() ? new SourceError('AuthFailed', authFailed(opts)) : e;
    });
}

/** The commit the branch or tag points at now (an annotated tag is peeled to its commit). */
async function tipOf(ctx: GitContext, ref: SourceRef): Promise<string> {
  const tag = ref.tag && !ref.branch ? ref.tag : undefined;
  const name = tag ? `refs/tags/${tag}` : `refs/remotes/origin/${ref.branch ?? DEFAULT_BRANCH}`;
  let oid = await git.resolveRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref: name }).catch(() => {
    throw new SourceError('RefNotFound', `${tag ? `tag ${tag}` : `branch ${ref.branch ?? DEFAULT_BRANCH}`} not found`);
  });
  for (let i = 0; i < 5; i++) {
    const obj = await git.readObject({ fs: ctx.fs, gitdir: ctx.gitdir, oid, format: 'parsed', cache: ctx.cache });
    if (obj.type !== 'tag') break;
    oid = (obj.object as { object: string }).object;
  }
  return oid;
}

function authFailed(opts: FetchOptions): string {
  return `authentication failed for ${displayUrl(opts.url)}: the server rejected the credentials from spec.secretRef`;
}

/** Maps isomorphic-git's errors to SourceError; the message never repeats credentials. */
function toSourceError(e: unknown, opts: FetchOptions): SourceError {
  if (e instanceof SourceError) return e;
  const err = e as { code?: string; message?: string; data?: { statusCode?: number } };
  const where = displayUrl(opts.url);
  if (err.code === 'HttpError' && err.data?.statusCode === 401) {
    return opts.credentials
      ? new SourceError('AuthFailed', authFailed(opts))
      : new SourceError(
          'AuthRequired',
          `authentication required: ${where} answered 401; set spec.secretRef to a Secret with username/password or bearerToken`,
        );
  }
  if (err.code === 'UserCanceledError') return new SourceError('AuthFailed', authFailed(opts));
  if (err.code === 'NotFoundError' || err.code === 'ResolveRefError')
    return new SourceError('RefNotFound', `${branchOrTag(opts.ref)} not found in ${where}`);
  let message = err.message ?? String(e);
  const creds = opts.credentials;
  for (const secret of creds ? ('bearerToken' in creds ? [creds.bearerToken] : [creds.password]) : [])
    if (secret) message = message.split(secret).join('***');
  return new SourceError('FetchFailed', `fetching ${where}: ${message.replace(/\/\/[^@/\s]*@/g, '//')}`);
}
