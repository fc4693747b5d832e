import git from 'isomorphic-git';
import type { GitContext } from './git-context.js';

/** What a person knows a commit by: its subject line, its author, when it was made. */
export interface CommitInfo {
  subject: string;
  author: string;
  /** RFC 3339, from the author timestamp. */
  authoredAt: string;
}

/** Kept short: a status holds ten of these, and a subject is one line. */
const MAX_SUBJECT = 200;
const MAX_AUTHOR = 100;

/** The commit's subject and author from the local clone; undefined when it cannot be read. */
export async function readCommitInfo(ctx: GitContext, sha: string): Promise<CommitInfo | undefined> {
  try {
    const { commit } = await git.readCommit({ fs: ctx.fs, gitdir: ctx.gitdir, oid: sha, cache: ctx.cache });
    const subject = (commit.message.split('\n')[0] ?? '').trim().slice(0, MAX_SUBJECT);
    return {
      subject,
      author: commit.author.name.slice(0, MAX_AUTHOR),
      authoredAt: new Date(commit.author.timestamp * 1000).toISOString(),
    };
  } catch {
    return undefined;
  }
}
