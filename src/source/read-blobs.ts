import git from 'isomorphic-git';
import type { GitContext } from './git-context.js';

/** Reads blobs by id (no work tree), a few at a time; returns oid → bytes. */
export async function readBlobs(opts: {
  ctx: GitContext;
  oids: Iterable<string>;
  concurrency?: number;
}): Promise<Map<string, Uint8Array>> {
  const { ctx } = opts;
  const out = new Map<string, Uint8Array>();
  const todo = [...new Set(opts.oids)];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const oid = todo[next++]!;
      out.set(oid, (await git.readBlob({ fs: ctx.fs, gitdir: ctx.gitdir, oid, cache: ctx.cache })).blob);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, todo.length) }, worker));
  return out;
}
