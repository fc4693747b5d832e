import git from 'isomorphic-git';
import type { GitContext } from '../git-context.js';
import type { TrustedKeys } from './trusted-keys.js';
import type { RefusalCode } from './verdict.js';
import { verifyObject } from './verify-object.js';

export type VerifyMode = 'head' | 'all';

export interface VerifyRevisionInput {
  ctx: GitContext;
  /** The commit the source would apply. */
  commit: string;
  /** When the source follows a tag: the tag's name; its tag object is verified instead of the commit. */
  tag?: string | undefined;
  mode: VerifyMode;
  /** The last commit whose signature passed (status.lastVerifiedCommit); `all` checks every commit after it. */
  lastVerified?: string | undefined;
  keys: TrustedKeys;
}

export type VerifyRevisionOutcome =
  | { ok: true; signer: string; checked: number }
  | { ok: false; code: RefusalCode; commit: string; signer: string; message: string };

/** mode all verifies at most this many commits in one go; more is refused rather than left unchecked. */
export const MAX_COMMITS = 1000;
// How far back the last verified commit's own ancestry is read to know where "since" begins.
const MAX_ANCESTRY = 20_000;

/**
 * Whether a revision may be applied: its tag (when following a tag), else its commit and, in mode
 * all, every commit since the last verified one (merged branches included, oldest first so the
 * first bad commit is the one named). Without a last verified commit (first sync, or verify just
 * turned on) mode all checks the head only: there is no "since" to start from.
 */
export async function verifyRevision(input: VerifyRevisionInput): Promise<VerifyRevisionOutcome> {
  const { ctx, commit, keys } = input;
  if (input.tag) return verifyTag(input);
  const commits =
    input.mode === 'all' && input.lastVerified ? await commitsSince(ctx, commit, input.lastVerified) : [commit];
  if (!commits) {
    return {
      ok: false,
      code: 'HistoryTooLong',
      commit,
      signer: 'unknown',
      message:
        `commit ${commit} refused: more than ${MAX_COMMITS} commits since the last verified commit ` +
        `${input.lastVerified}; verify mode all checks them all or applies none`,
    };
  }
  let signer = '';
  for (const oid of commits) {
    const v = await verifyObject(ctx, oid, keys);
    if (!v.ok)
      return {
        ok: false,
        code: v.code,
        commit: oid,
        signer: v.signer,
        message: refusal(`commit ${oid}`, v.signer, v.detail, oid === commit ? undefined : commit),
      };
    signer = v.signer;
  }
  return { ok: true, signer, checked: commits.length };
}

async function verifyTag(input: VerifyRevisionInput): Promise<VerifyRevisionOutcome> {
  const { ctx, commit } = input;
  const tag = input.tag ?? '';
  const oid = await git.resolveRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref: `refs/tags/${tag}` });
  if (oid === commit)
    return {
      ok: false,
      code: 'Unsigned',
      commit,
      signer: 'unsigned',
      message: `tag ${tag} (commit ${commit}) refused: unsigned (a lightweight tag carries no signature; use git tag -s)`,
    };
  const v = await verifyObject(ctx, oid, input.keys);
  if (!v.ok)
    return {
      ok: false,
      code: v.code,
      commit,
      signer: v.signer,
      message: refusal(`tag ${tag} (commit ${commit})`, v.signer, v.detail),
    };
  return { ok: true, signer: v.signer, checked: 1 };
}

function refusal(what: string, signer: string, detail: string, tip?: string): string {
  const by = signer === 'unsigned' ? 'unsigned' : `signed by ${signer}`;
  return `${what} refused: ${by}: ${detail}${tip ? `; ${tip} and the commits before it are not applied` : ''}`;
}

async function parentsOf(ctx: GitContext, oid: string): Promise<string[] | undefined> {
  try {
    return (await git.readCommit({ fs: ctx.fs, gitdir: ctx.gitdir, oid, cache: ctx.cache })).commit.parent;
  } catch {
    // Beyond a shallow clone's boundary: nothing older is here to check.
    return undefined;
  }
}

/** The commits reachable from `tip` and not from `since`, oldest first; undefined past MAX_COMMITS. */
async function commitsSince(ctx: GitContext, tip: string, since: string): Promise<string[] | undefined> {
  const known = new Set<string>();
  for (const queue = [since]; queue.length && known.size < MAX_ANCESTRY; ) {
    const oid = queue.shift() ?? '';
    if (known.has(oid)) continue;
    known.add(oid);
    queue.push(...((await parentsOf(ctx, oid)) ?? []));
  }
  const order: string[] = [];
  const seen = new Set<string>();
  for (const queue = [tip]; queue.length; ) {
    const oid = queue.shift() ?? '';
    if (seen.has(oid) || known.has(oid)) continue;
    seen.add(oid);
    const parents = await parentsOf(ctx, oid);
    if (!parents) continue;
    order.push(oid);
    if (order.length > MAX_COMMITS) return undefined;
    queue.push(...parents);
  }
  // The tip itself is always checked, also when it is older than the last verified (a rollback).
  return order.length ? order.reverse() : [tip];
}
