// A commit of a source as its page shows it: what Git says of it and the diff of each file it
// changed against its first parent, read from the source's own clone. Bounded: a commit of 10,000
// files lists the first hundred, a file past 64 KB is named but not diffed, and the page says so.

import git from 'isomorphic-git';
import { readCommitInfo, diffCommits, type GitContext } from '../source/index.js';
import { unifiedDiff } from '../util/line-diff.js';
import type { CommitFileDiff } from './types.js';

const MAX_FILES = 100;
const MAX_DIFFED_BYTES = 64 * 1024;

export interface CommitDiff {
  parent?: string;
  subject?: string;
  author?: string;
  authoredAt?: string;
  files: CommitFileDiff[];
  /** Changed files not listed. */
  cut: number;
}

async function textAt(ctx: GitContext, commit: string, filepath: string): Promise<string | undefined> {
  try {
    const { blob } = await git.readBlob({ fs: ctx.fs, gitdir: ctx.gitdir, oid: commit, filepath, cache: ctx.cache });
    if (blob.length > MAX_DIFFED_BYTES || blob.includes(0)) return undefined;
    return new TextDecoder().decode(blob);
  } catch {
    return undefined;
  }
}

export async function commitDiff(ctx: GitContext, sha: string, prefix: string): Promise<CommitDiff> {
  const [{ commit }, info] = await Promise.all([
    git.readCommit({ fs: ctx.fs, gitdir: ctx.gitdir, oid: sha, cache: ctx.cache }),
    readCommitInfo(ctx, sha),
  ]);
  const parent = commit.parent[0];
  const changes = await diffCommits({ ctx, from: parent, to: sha, path: prefix });
  const files = await Promise.all(
    changes.slice(0, MAX_FILES).map(async (c): Promise<CommitFileDiff> => {
      const path = prefix ? `${prefix}/${c.path}` : c.path;
      const before = c.status === 'added' || !parent ? '' : await textAt(ctx, parent, path);
      const after = c.status === 'deleted' ? '' : await textAt(ctx, sha, path);
      if (before === undefined || after === undefined) return { path, status: c.status, diff: '', tooLarge: true };
      return { path, status: c.status, diff: unifiedDiff(before, after, { fromName: path, toName: path }) };
    }),
  );
  return { ...(parent ? { parent } : {}), ...(info ?? {}), files, cut: changes.length - files.length };
}
